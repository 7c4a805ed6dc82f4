import { eq } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';
import { accounts } from '../../db/schema/index.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { JobHandlers } from '../../jobs/worker.js';
import type { Logger } from '../../lib/logger.js';
import type { Mailer, MailMessage } from '../mail/mailer.js';
import { escapeHtml, mailLang, type MailLang } from '../mail/templates.js';
import { alertWords } from './alert-copy.js';
import type { AlertPort, PushMessage, PushPort, TravellerAlert } from './ports.js';

export const ALERT_MAIL_JOB = 'alert.mail';

/**
 * Alerts whose e-mail another area already sends, with more in it: the staff reply mail (the
 * answer itself) and the purchase receipt ("Your eSIM is ready – order …", with the ICCID and QR
 * code). A second mail saying the same would be noise; these alerts are pushed only.
 */
const MAILED_ELSEWHERE: ReadonlySet<TravellerAlert['kind']> = new Set(['ticket_answered', 'esim_ready']);

/** The web page an alert opens: the eSIM's own page (it has the top-up), or the ticket. */
export function alertPath(alert: TravellerAlert): string {
  if (alert.kind === 'ticket_answered') return `/support?ticket=${encodeURIComponent(alert.ticketId)}`;
  return `/esims/${encodeURIComponent(alert.iccid)}`;
}

/** The push of `alert` in `lang`: data carries the page (`url`) and, for an eSIM, its `iccid`. */
export function alertPush(lang: MailLang, alert: TravellerAlert): PushMessage {
  const words = alertWords(lang, alert);
  return {
    title: words.title,
    body: words.body,
    data: {
      kind: alert.kind,
      url: alertPath(alert),
      ...('iccid' in alert ? { iccid: alert.iccid } : {}),
      ...(alert.kind === 'ticket_answered' ? { ticketId: alert.ticketId } : {}),
    },
  };
}

/** The mail of `alert` in `lang`: the words, the link to its page, and the ICCID spelled out. */
export function alertMail(
  lang: MailLang,
  to: string,
  alert: TravellerAlert,
  publicBaseUrl: string,
): MailMessage {
  const words = alertWords(lang, alert);
  const link = `${publicBaseUrl}${alertPath(alert)}`;
  const iccidLine = 'iccid' in alert ? `ICCID: ${alert.iccid}` : undefined;
  const text = [words.detail, '', `${words.action}: ${link}`, ...(iccidLine ? ['', iccidLine] : [])].join(
    '\n',
  );
  const html = [
    `<p>${escapeHtml(words.detail)}</p>`,
    `<p><a href="${escapeHtml(link)}">${escapeHtml(words.action)}</a></p>`,
    ...(iccidLine ? [`<p><small>${escapeHtml(iccidLine)}</small></p>`] : []),
  ].join('\n');
  return { to, subject: words.title, text, html };
}

/**
 * Traveller alerts (issue 31 L2), the AlertPort: in the caller's transaction, a push to each of
 * the account's devices (PushPort) and a mail job, each only if the account wants that channel
 * (`notifications: { email, push }` of the profile), worded in the account's language. The mail
 * is built and sent after commit by the job (never a network call inside the caller's
 * transaction); the mail outbox's dedupe key makes it once per alert even if the job runs twice.
 */
export function createAlertService(deps: {
  db: Db;
  queue: JobQueue;
  push: PushPort;
  mailer: Mailer;
  publicBaseUrl: string;
  log: Logger;
}) {
  const { queue } = deps;

  async function recipient(db: DbOrTx, accountId: string) {
    const [account] = await db
      .select({
        email: accounts.email,
        locale: accounts.locale,
        status: accounts.status,
        notifyEmail: accounts.notifyEmail,
        notifyPush: accounts.notifyPush,
      })
      .from(accounts)
      .where(eq(accounts.id, accountId));
    // A closed account is told nothing.
    if (!account || account.status === 'DELETED' || account.status === 'BANNED') return undefined;
    return account;
  }

  const service: AlertPort & { push: PushPort; registerJobs(handlers: JobHandlers): void } = {
    /** The push delivery, read at each send: tests swap in a recorder (like webhookNet's transport). */
    push: deps.push,

    async send(tx, accountId, alert, dedupeKey) {
      const account = await recipient(tx, accountId);
      if (!account) return;
      const lang = mailLang(account.locale);
      if (account.notifyPush)
        await service.push.toAccount(tx, accountId, alertPush(lang, alert), `alert:${dedupeKey}`);
      if (account.notifyEmail && !MAILED_ELSEWHERE.has(alert.kind))
        await queue.enqueue(tx, {
          kind: ALERT_MAIL_JOB,
          payload: { accountId, alert, dedupeKey },
          dedupeKey: `alert-mail:${dedupeKey}`,
        });
    },

    registerJobs(handlers) {
      handlers[ALERT_MAIL_JOB] = {
        async run(job) {
          const { accountId, alert, dedupeKey } = job.payload as {
            accountId: string;
            alert: TravellerAlert;
            dedupeKey: string;
          };
          const account = await recipient(deps.db, accountId);
          // Switched off since the alert was queued: the traveller's latest choice wins.
          if (!account?.notifyEmail) return;
          const message = alertMail(mailLang(account.locale), account.email, alert, deps.publicBaseUrl);
          await deps.mailer.send({ ...message, dedupeKey: `alert:${dedupeKey}` });
        },
      };
    },
  };
  return service;
}

export type AlertService = ReturnType<typeof createAlertService>;
