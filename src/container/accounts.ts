import { createApiKeyService } from '../domain/accounts/api-keys.js';
import { createAccountService } from '../domain/accounts/accounts.service.js';
import { PASSWORD_RESET_JOB } from '../domain/accounts/password-reset.js';
import { createPasswordHashing } from '../domain/accounts/passwords.js';
import { createSupportService } from '../domain/support/support.service.js';
import { createTicketConsole } from '../domain/support/ticket-console.js';
import { createPartnersService } from '../domain/partners/partners.service.js';
import { createLegalService } from '../domain/legal/legal.service.js';
import { createDevicesService } from '../domain/devices/devices.service.js';
import { createSessionService } from '../domain/sessions/sessions.service.js';
import type { Events } from './events.js';
import type { Infrastructure } from './infrastructure.js';

/** Accounts, sessions, API keys, devices, support, and the legal pages the contact form sits on. */
export function buildAccounts(
  { config, db, clock, queue, log, audit, mailer, jobHandlers }: Infrastructure,
  { alerts }: Pick<Events, 'alerts'>,
) {
  const sessions = createSessionService({ db, clock });
  const apiKeys = createApiKeyService({ db, clock });
  // One argon2 gate per container: a bounded queue and a per-client share (issue 28 H2).
  const passwords = createPasswordHashing(config.abuseLimits, clock);
  const accounts = createAccountService({
    db,
    clock,
    sessions,
    apiKeys,
    mailer,
    audit,
    queue,
    passwords,
    publicBaseUrl: config.publicBaseUrl,
  });
  jobHandlers[PASSWORD_RESET_JOB] = { run: (job) => accounts.sendPasswordReset(job.payload) };
  const devices = createDevicesService({ db, clock });
  const support = createSupportService({
    db,
    clock,
    mailer,
    audit,
    supportEmail: config.supportEmail,
    publicBaseUrl: config.publicBaseUrl,
    onMailError: (error) => log.warn({ err: String(error) }, 'support mail could not be recorded'),
    alerts,
  });
  // The console's ticket inbox: notes and assignment (issue 33); replies stay with `support`.
  const ticketConsole = createTicketConsole({ db, clock, audit });
  const legal = createLegalService({
    company: { ...config.company, supportEmail: config.supportEmail },
    shippedDir: config.legal.shippedDir,
    overrideDir: config.legal.overrideDir,
  });
  const partners = createPartnersService({ db });
  return { sessions, apiKeys, accounts, passwords, devices, support, ticketConsole, legal, partners };
}
export type Accounts = ReturnType<typeof buildAccounts>;
