/** Outgoing mail: the transport and the addresses mail comes from and goes to. */

import { oneOf, required, str, url, type Env } from './parse.js';

export interface MailConfig {
  mail: { transport: 'outbox' | 'smtp'; smtpUrl: string | undefined; from: string };
  supportEmail: string;
}

export function mailConfig(env: Env): MailConfig {
  const transport = oneOf(env, 'MAIL_TRANSPORT', ['outbox', 'smtp'] as const, 'outbox');
  const smtpUrl = url(env, 'SMTP_URL', undefined, ['smtp:', 'smtps:']);
  if (transport === 'smtp') required('SMTP_URL', smtpUrl, 'MAIL_TRANSPORT=smtp');
  return {
    mail: { transport, smtpUrl, from: str(env, 'MAIL_FROM', 'eSIM Service <no-reply@localhost>') },
    supportEmail: str(env, 'SUPPORT_EMAIL', 'support@localhost'),
  };
}
