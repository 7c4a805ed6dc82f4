import { and, asc, desc, eq, gte, inArray, lt } from 'drizzle-orm';
import { createRequire } from 'node:module';
import type nodemailer from 'nodemailer';
import type { Db } from '../../db/client.js';
import { keysetAfter, type KeysetPage } from '../../db/keyset.js';
import { mailOutbox } from '../../db/schema/index.js';
import type { Clock } from '../../lib/clock.js';
import { newId } from '../../lib/ids.js';

export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
  /** Set for an inline image: the HTML shows it with `<img src="cid:<cid>">`. */
  cid?: string;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[];
  /**
   * One message per business event: a second send with the same key records and delivers
   * nothing and returns the first message's record (replayed webhooks, retried jobs).
   */
  dedupeKey?: string;
}

export type MailRecord = typeof mailOutbox.$inferSelect;

export interface Mailer {
  /** Records the message in the outbox and, with MAIL_TRANSPORT=smtp, delivers it. Never throws on delivery. */
  send(message: MailMessage): Promise<MailRecord>;
  /** Newest first (created_at, id); `after`: keyset position [createdAt, id] (cursor pagination). */
  list(filter: { to?: string | undefined } & KeysetPage): Promise<MailRecord[]>;
  /**
   * Messages to any of `to` recorded in [from, until), oldest first, at most `limit`: the
   * candidates of an order's timeline (on mail_outbox_to_list_idx), which picks its own.
   */
  listTo(filter: { to: string[]; from: Date; until: Date; limit: number }): Promise<MailRecord[]>;
  /** Every message recorded to `to`, newest first (the account holder's data export). */
  allTo(to: string): Promise<MailRecord[]>;
}

export function createMailer(deps: {
  db: Db;
  clock: Clock;
  transport: 'outbox' | 'smtp';
  smtpUrl?: string | undefined;
  from: string;
  onDeliveryError?: (error: Error, id: string) => void;
}): Mailer {
  const smtp =
    deps.transport === 'smtp' && deps.smtpUrl
      ? // Loaded only for MAIL_TRANSPORT=smtp.
        (createRequire(import.meta.url)('nodemailer') as typeof nodemailer).createTransport(deps.smtpUrl)
      : undefined;

  return {
    async send(message) {
      const id = newId('mail');
      const { to, subject, text, html, attachments = [], dedupeKey } = message;
      const [row] = await deps.db
        .insert(mailOutbox)
        .values({
          id,
          to,
          subject,
          text,
          html: html ?? null,
          attachments: attachments.length
            ? attachments.map((a) => ({
                filename: a.filename,
                contentType: a.contentType,
                cid: a.cid ?? null,
                size: a.content.length,
              }))
            : null,
          dedupeKey: dedupeKey ?? null,
          status: 'recorded',
          createdAt: deps.clock.now(),
        })
        .onConflictDoNothing({ target: mailOutbox.dedupeKey })
        .returning();
      if (!row) {
        // Already sent for this event: nothing is recorded or delivered twice.
        const [first] = await deps.db.select().from(mailOutbox).where(eq(mailOutbox.dedupeKey, dedupeKey!));
        return first!;
      }
      if (!smtp) return row;
      try {
        await smtp.sendMail({
          from: deps.from,
          to,
          subject,
          text,
          ...(html !== undefined ? { html } : {}),
          attachments: attachments.map((a) => ({
            filename: a.filename,
            content: a.content,
            contentType: a.contentType,
            ...(a.cid ? { cid: a.cid, contentDisposition: 'inline' as const } : {}),
          })),
        });
        const [sent] = await deps.db
          .update(mailOutbox)
          .set({ status: 'sent', sentAt: deps.clock.now() })
          .where(eq(mailOutbox.id, id))
          .returning();
        return sent!;
      } catch (err) {
        const error = err instanceof Error ? err : new Error(String(err));
        deps.onDeliveryError?.(error, id);
        const [failed] = await deps.db
          .update(mailOutbox)
          .set({ status: 'failed', error: error.message.slice(0, 500) })
          .where(eq(mailOutbox.id, id))
          .returning();
        return failed!;
      }
    },

    async list({ to, limit = 100, after }) {
      return deps.db
        .select()
        .from(mailOutbox)
        .where(
          and(
            to ? eq(mailOutbox.to, to.trim().toLowerCase()) : undefined,
            after ? keysetAfter([mailOutbox.createdAt, mailOutbox.id], after, 'desc') : undefined,
          ),
        )
        .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
        .limit(limit);
    },

    async allTo(to) {
      return deps.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.to, to.trim().toLowerCase()))
        .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id));
    },

    async listTo({ to, from, until, limit }) {
      const recipients = [...new Set(to.map((r) => r.trim().toLowerCase()).filter(Boolean))];
      if (recipients.length === 0) return [];
      return deps.db
        .select()
        .from(mailOutbox)
        .where(
          and(
            inArray(mailOutbox.to, recipients),
            gte(mailOutbox.createdAt, from),
            lt(mailOutbox.createdAt, until),
          ),
        )
        .orderBy(asc(mailOutbox.createdAt), asc(mailOutbox.id))
        .limit(limit);
    },
  };
}
