import { pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from './accounts.js';

/**
 * Secrets the service generates itself when no variable sets them (for example the sandbox
 * webhook signing secret). The first instance to start inserts a random value; every other
 * instance reads the same row, so all of them sign and verify alike.
 */
export const appSecrets = pgTable('app_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: ts('created_at').notNull(),
});
