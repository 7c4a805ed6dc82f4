import type { MailMessage } from '../mail/mailer.js';

type MailLang = 'tr' | 'en';

/** Accounts default to Turkish; any locale we have no text for gets English. */
export function mailLanguage(locale: string | null | undefined): MailLang {
  const lang = (locale ?? 'tr').slice(0, 2).toLowerCase();
  return lang === 'tr' ? 'tr' : 'en';
}

function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

const STAFF_REPLY = {
  tr: {
    subject: (s: string) => `Destek talebinize yanıt verildi: ${s}`,
    intro: 'Destek ekibimiz talebinize yanıt verdi:',
    outro: 'Yanıtlamak için uygulamadaki Destek bölümünü kullanabilirsiniz.',
    ref: 'Talep numarası',
  },
  en: {
    subject: (s: string) => `Your support ticket has a reply: ${s}`,
    intro: 'Our support team has replied to your ticket:',
    outro: 'You can answer from the Support section of the app.',
    ref: 'Ticket reference',
  },
} as const;

export function staffReplyMail(input: {
  to: string;
  locale: string;
  ticketId: string;
  subject: string;
  reply: string;
}): MailMessage {
  const t = STAFF_REPLY[mailLanguage(input.locale)];
  const text = `${t.intro}\n\n${input.reply}\n\n${t.outro}\n${t.ref}: ${input.ticketId}\n`;
  const html =
    `<p>${escapeHtml(t.intro)}</p>` +
    `<blockquote style="white-space:pre-wrap">${escapeHtml(input.reply)}</blockquote>` +
    `<p>${escapeHtml(t.outro)}<br>${escapeHtml(t.ref)}: ${escapeHtml(input.ticketId)}</p>`;
  return { to: input.to, subject: t.subject(input.subject), text, html };
}

/** Operators read English; this goes to SUPPORT_EMAIL when the system opens a ticket. */
export function systemTicketMail(input: {
  to: string;
  ticketId: string;
  accountId: string;
  orderId: string;
  subject: string;
  message: string;
}): MailMessage {
  const text =
    `The service opened support ticket ${input.ticketId} automatically.\n\n` +
    `Account: ${input.accountId}\nOrder: ${input.orderId}\n\n${input.message}\n`;
  return { to: input.to, subject: `[system ticket] ${input.subject}`, text };
}

/**
 * The system ticket opened when an order's eSIM could not be issued yet. The customer sees it,
 * so it says what happens next and never carries the provider's error text (operators find that
 * in the order's fulfillment attempts).
 */
export function delayedOrderTicket(order: { orderNumber: string; amountCents: number }): {
  subject: string;
  message: string;
} {
  return {
    subject: `eSIM for order ${order.orderNumber} is delayed`,
    message:
      `We could not issue the eSIM for order ${order.orderNumber} yet. Your payment of ` +
      `${(order.amountCents / 100).toFixed(2)} USD is safe: we retry automatically, and if the eSIM ` +
      `cannot be issued the full amount is returned to your wallet. Please do not pay again.`,
  };
}
