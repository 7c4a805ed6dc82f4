import type { paths } from './mobile';

type Json<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': infer B } } };
}
  ? B
  : paths[P][M] extends { responses: { 201: { content: { 'application/json': infer C } } } }
    ? C
    : never;

export type User = NonNullable<Json<'/api/v1/auth/me', 'get'>['user']>;
export type DestinationList = Json<'/api/v1/destinations', 'get'>;
export type CountrySummary = DestinationList['countries'][number];
export type RegionSummary = DestinationList['regions'][number];
export type DestinationDetail = Json<'/api/v1/destinations/{code}', 'get'>['destination'];
export type Plan = DestinationDetail['plans'][number];
export type ExchangeRate = NonNullable<Json<'/api/v1/destinations/{code}', 'get'>['exchangeRate']>;
export type Receipt = Json<'/api/v1/user/orders/{id}/receipt', 'get'>['receipt'];
export type Order = Json<'/api/v1/user/orders', 'get'>['orders'][number];
export type Esim = Json<'/api/v1/user/esims', 'get'>['esims'][number];
export type WalletTransaction = Json<'/api/v1/user/wallet/transactions', 'get'>['transactions'][number];
export type Ticket = Json<'/api/v1/support/tickets', 'get'>['tickets'][number];
export type GeneratedKey = Json<'/api/v1/user/api-key/generate', 'post'>;
export type Currency = 'USD' | 'EUR' | 'GBP' | 'TRY';
export const CURRENCIES: readonly Currency[] = ['USD', 'EUR', 'GBP', 'TRY'];
export type PartnerMembership = Json<'/api/v1/partners', 'get'>['partners'][number];
export type PartnerDetail = Json<'/api/v1/partners/{partnerId}', 'get'>;
