import type { MailMessage } from '../mail/mailer.js';
import { firstUiLanguage, type UiLanguage } from '../../lib/languages.js';

type MailLang = UiLanguage;

/** Accounts default to Turkish; any locale we have no text for gets English. */
export function mailLanguage(locale: string | null | undefined): MailLang {
  return firstUiLanguage([locale ?? 'tr'], 'en');
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
  de: {
    subject: (s: string) => `Antwort auf Ihre Supportanfrage: ${s}`,
    intro: 'Unser Support-Team hat auf Ihre Anfrage geantwortet:',
    outro: 'Sie können im Bereich „Support“ der App antworten.',
    ref: 'Anfragenummer',
  },
  fr: {
    subject: (s: string) => `Réponse à votre demande d’assistance : ${s}`,
    intro: 'Notre équipe d’assistance a répondu à votre demande :',
    outro: 'Vous pouvez répondre depuis la rubrique Assistance de l’application.',
    ref: 'Référence de la demande',
  },
  es: {
    subject: (s: string) => `Respuesta a su solicitud de soporte: ${s}`,
    intro: 'Nuestro equipo de soporte ha respondido a su solicitud:',
    outro: 'Puede responder desde la sección Soporte de la aplicación.',
    ref: 'Referencia de la solicitud',
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

const GUEST_REPLY = {
  tr: {
    subject: (s: string) => `Mesajınıza yanıt verildi: ${s}`,
    greeting: (name: string) => `Merhaba ${name},`,
    intro: 'Destek ekibimiz iletişim formundan gönderdiğiniz mesaja yanıt verdi:',
    link: 'Yazışmanın tamamını görmek ve yanıtlamak için bu bağlantıyı açın:',
    note: 'Bağlantı bu yazışmaya erişim sağlar; paylaşmayın. Her yeni yanıtla yeni bir bağlantı gönderilir ve öncekiler geçersiz olur.',
    ref: 'Talep numarası',
  },
  en: {
    subject: (s: string) => `We replied to your message: ${s}`,
    greeting: (name: string) => `Hello ${name},`,
    intro: 'Our support team has replied to the message you sent with the contact form:',
    link: 'Open this link to see the whole conversation and to answer:',
    note: 'The link gives access to this conversation, so do not share it. Each new reply comes with a new link, and earlier ones stop working.',
    ref: 'Ticket reference',
  },
  de: {
    subject: (s: string) => `Antwort auf Ihre Nachricht: ${s}`,
    greeting: (name: string) => `Guten Tag ${name},`,
    intro:
      'Unser Support-Team hat auf die Nachricht geantwortet, die Sie über das Kontaktformular gesendet haben:',
    link: 'Öffnen Sie diesen Link, um den gesamten Verlauf zu sehen und zu antworten:',
    note: 'Der Link gewährt Zugriff auf diese Unterhaltung; geben Sie ihn bitte nicht weiter. Jede neue Antwort enthält einen neuen Link, frühere Links werden ungültig.',
    ref: 'Anfragenummer',
  },
  fr: {
    subject: (s: string) => `Réponse à votre message : ${s}`,
    greeting: (name: string) => `Bonjour ${name},`,
    intro:
      'Notre équipe d’assistance a répondu au message que vous avez envoyé via le formulaire de contact :',
    link: 'Ouvrez ce lien pour consulter l’ensemble de l’échange et y répondre :',
    note: 'Ce lien donne accès à cet échange : ne le partagez pas. Chaque nouvelle réponse est accompagnée d’un nouveau lien, et les précédents cessent de fonctionner.',
    ref: 'Référence de la demande',
  },
  es: {
    subject: (s: string) => `Respuesta a su mensaje: ${s}`,
    greeting: (name: string) => `Hola, ${name}:`,
    intro: 'Nuestro equipo de soporte ha respondido al mensaje que envió mediante el formulario de contacto:',
    link: 'Abra este enlace para ver toda la conversación y responder:',
    note: 'El enlace da acceso a esta conversación, así que no lo comparta. Cada nueva respuesta incluye un enlace nuevo y los anteriores dejan de funcionar.',
    ref: 'Referencia de la solicitud',
  },
} as const;

/**
 * A staff reply to a guest ticket (contact form): the guest has no account, so the mail carries
 * the link to the thread, `{PUBLIC_BASE_URL}/support/guest/<token>`, in the language of the form.
 */
export function guestReplyMail(input: {
  to: string;
  locale: string | null;
  name: string;
  ticketId: string;
  subject: string;
  reply: string;
  link: string;
}): MailMessage {
  const t = GUEST_REPLY[mailLanguage(input.locale ?? 'en')];
  const text =
    `${t.greeting(input.name)}\n\n${t.intro}\n\n${input.reply}\n\n${t.link}\n${input.link}\n\n` +
    `${t.note}\n${t.ref}: ${input.ticketId}\n`;
  const html =
    `<p>${escapeHtml(t.greeting(input.name))}</p><p>${escapeHtml(t.intro)}</p>` +
    `<blockquote style="white-space:pre-wrap">${escapeHtml(input.reply)}</blockquote>` +
    `<p>${escapeHtml(t.link)}<br><a href="${escapeHtml(input.link)}">${escapeHtml(input.link)}</a></p>` +
    `<p>${escapeHtml(t.note)}<br>${escapeHtml(t.ref)}: ${escapeHtml(input.ticketId)}</p>`;
  return { to: input.to, subject: t.subject(input.subject), text, html };
}

/** Operators read English; this goes to SUPPORT_EMAIL when someone writes through the contact form. */
export function guestTicketMail(input: {
  to: string;
  ticketId: string;
  email: string;
  name: string;
  subject: string;
  message: string;
}): MailMessage {
  const text =
    `New message from the contact form, ticket ${input.ticketId}.\n\n` +
    `From: ${input.name} <${input.email}>\n\n${input.message}\n\n` +
    `Answer it with the operator API (POST /api/admin/v1/tickets/${input.ticketId}/messages): the reply is mailed to the sender.\n`;
  return { to: input.to, subject: `[contact form] ${input.subject}`, text };
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
