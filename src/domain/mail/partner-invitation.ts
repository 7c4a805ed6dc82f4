import type { MailMessage } from './mailer.js';
import { escapeHtml, type MailLang } from './templates.js';

const COPY: Record<
  MailLang,
  { subject: (partner: string) => string; intro: (partner: string, role: string) => string; expiry: string }
> = {
  en: {
    subject: (p) => `You are invited to ${p}'s partner team`,
    intro: (p, r) => `${p} invites you to its partner dashboard as ${r}. Open this link to accept:`,
    expiry: 'The link works for 7 days and once. Sign in (or register) with this e-mail address first.',
  },
  tr: {
    subject: (p) => `${p} iş ortağı ekibine davet edildiniz`,
    intro: (p, r) =>
      `${p} sizi iş ortağı paneline ${r} rolüyle davet ediyor. Kabul etmek için bağlantıyı açın:`,
    expiry: 'Bağlantı 7 gün ve bir kez geçerlidir. Önce bu e-posta adresiyle giriş yapın (veya kaydolun).',
  },
  de: {
    subject: (p) => `Einladung in das Partner-Team von ${p}`,
    intro: (p, r) =>
      `${p} lädt Sie als ${r} in sein Partner-Dashboard ein. Öffnen Sie den Link zum Annehmen:`,
    expiry:
      'Der Link gilt 7 Tage und einmal. Melden Sie sich zuerst mit dieser E-Mail-Adresse an (oder registrieren Sie sich).',
  },
  fr: {
    subject: (p) => `Invitation dans l'équipe partenaire de ${p}`,
    intro: (p, r) =>
      `${p} vous invite dans son tableau de bord partenaire en tant que ${r}. Ouvrez ce lien pour accepter :`,
    expiry:
      "Le lien est valable 7 jours et une seule fois. Connectez-vous (ou inscrivez-vous) d'abord avec cette adresse e-mail.",
  },
  es: {
    subject: (p) => `Invitación al equipo de socio de ${p}`,
    intro: (p, r) => `${p} le invita a su panel de socio como ${r}. Abra este enlace para aceptar:`,
    expiry:
      'El enlace vale 7 días y una sola vez. Inicie sesión (o regístrese) antes con esta dirección de correo.',
  },
};

/** The invitation to a partner's team: the link `PUBLIC_BASE_URL/partner-invitations/<token>`. */
export function partnerInvitationMail(
  lang: MailLang,
  to: string,
  params: { partnerName: string; role: string; link: string },
): MailMessage {
  const copy = COPY[lang];
  const intro = copy.intro(params.partnerName, params.role);
  const text = [intro, '', params.link, '', copy.expiry].join('\n');
  const html = [
    `<p>${escapeHtml(intro)}</p>`,
    `<p><a href="${escapeHtml(params.link)}">${escapeHtml(params.link)}</a></p>`,
    `<p>${escapeHtml(copy.expiry)}</p>`,
  ].join('\n');
  return { to, subject: copy.subject(params.partnerName), text, html };
}
