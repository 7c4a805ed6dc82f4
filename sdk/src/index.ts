export * from './client.js';
export * from './webhooks.js';
export type { components, operations, paths } from './generated/partner.js';
