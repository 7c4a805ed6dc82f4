import type { MailMessage } from './mailer.js';
import { escapeHtml } from './templates.js';

/**
 * The enrolment link of an operator (issue 33 O1): `PUBLIC_BASE_URL/admin/enrol#<token>`. English
 * only, like the console. `reset` when an enrolled operator gets a new link (lost phone or password).
 */
export function operatorInvitationMail(
  to: string,
  params: { serviceName: string; role: string; link: string; expiresAt: Date; reset: boolean },
): MailMessage {
  const intro = params.reset
    ? `A new sign-in set-up link for the ${params.serviceName} operator console. Open it to set a new password and a new authenticator code (role: ${params.role}):`
    : `You are invited to the ${params.serviceName} operator console as ${params.role}. Open this link to set your password and enrol an authenticator app:`;
  const expiry = `The link works once, until ${params.expiresAt.toISOString().replace('T', ' ').slice(0, 16)} UTC (24 hours). If you did not expect it, ignore this e-mail and tell the console's Owner.`;
  const subject = params.reset
    ? `Your new ${params.serviceName} console sign-in link`
    : `Your ${params.serviceName} operator console invitation`;
  const text = [intro, '', params.link, '', expiry].join('\n');
  const html = [
    `<p>${escapeHtml(intro)}</p>`,
    `<p><a href="${escapeHtml(params.link)}">${escapeHtml(params.link)}</a></p>`,
    `<p>${escapeHtml(expiry)}</p>`,
  ].join('\n');
  return { to, subject, text, html };
}
