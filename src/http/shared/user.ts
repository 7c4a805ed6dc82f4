import { Type, type Static } from '@sinclair/typebox';
import type { AccountView } from '../../domain/accounts/accounts.service.js';
import { centsToUsd } from '../../lib/money.js';
import { IsoDate, Nullable } from './schemas.js';

/** Which channels the account's traveller alerts use (usage, expiry, eSIM ready, support answers). */
export const NotificationPreferencesSchema = Type.Object(
  {
    email: Type.Boolean({ description: 'Alerts by e-mail (default true)' }),
    push: Type.Boolean({ description: "Alerts by push to the account's devices (default true)" }),
  },
  { title: 'NotificationPreferences' },
);

/** The Mobile/Web API User (specification §2 plus avatarUrl and hasApiKey, decisions §4). */
export const UserSchema = Type.Object(
  {
    id: Type.String(),
    firstName: Type.String(),
    lastName: Type.String(),
    fullName: Type.String(),
    email: Type.String(),
    emailVerified: Type.Boolean(),
    walletBalance: Type.Number({ description: 'Wallet balance in USD (at most two decimals)' }),
    currency: Type.String({ description: 'Preferred display currency: USD, EUR, GBP or TRY' }),
    locale: Type.String({ description: '2-letter language code' }),
    createdAt: IsoDate,
    avatarUrl: Nullable(Type.String({ description: 'Absolute URL of the avatar image, or null' })),
    hasApiKey: Type.Boolean({ description: 'Whether a live Partner API key (svc_live_sk_…) is active' }),
    hasTestApiKey: Type.Boolean({
      description: 'Whether a test-mode Partner API key (svc_test_sk_…) is active',
    }),
    apiKeyPrefix: Nullable(
      Type.String({ description: 'Display form of the active Partner API key (never the key), or null' }),
    ),
    apiKeyGeneratedAt: Nullable(IsoDate),
    notifications: NotificationPreferencesSchema,
  },
  { title: 'User' },
);

export type User = Static<typeof UserSchema>;

export const AVATAR_PATH = '/api/v1/avatars';

export function avatarUrl(publicBaseUrl: string, token: string | null): string | null {
  return token ? `${publicBaseUrl}${AVATAR_PATH}/${token}` : null;
}

/** The one place an account row becomes a User; other areas reuse it (for example wallet screens). */
export function presentUser({ account, avatarToken }: AccountView, publicBaseUrl: string): User {
  return {
    id: account.id,
    firstName: account.firstName,
    lastName: account.lastName,
    fullName: `${account.firstName} ${account.lastName}`.trim(),
    email: account.email,
    emailVerified: account.emailVerified,
    walletBalance: centsToUsd(account.walletBalanceCents),
    currency: account.preferredCurrency,
    locale: account.locale,
    createdAt: account.createdAt.toISOString(),
    avatarUrl: avatarUrl(publicBaseUrl, avatarToken),
    hasApiKey: account.apiKeyHash !== null,
    hasTestApiKey: account.testApiKeyHash !== null,
    apiKeyPrefix: account.apiKeyHash !== null ? account.apiKeyPrefix : null,
    apiKeyGeneratedAt:
      account.apiKeyHash !== null && account.apiKeyGeneratedAt
        ? account.apiKeyGeneratedAt.toISOString()
        : null,
    notifications: { email: account.notifyEmail, push: account.notifyPush },
  };
}
