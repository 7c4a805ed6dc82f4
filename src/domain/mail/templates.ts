import type { MailMessage } from './mailer.js';

export type MailLang = 'tr' | 'en';

/** tr and en are the languages we write mail in; any other locale falls back to English. */
export function mailLang(...candidates: Array<string | null | undefined>): MailLang {
  for (const c of candidates) {
    const base = c?.trim().toLowerCase().slice(0, 2);
    if (base === 'tr' || base === 'en') return base;
  }
  return 'en';
}

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const RESET_COPY: Record<MailLang, { subject: string; intro: string; tokenLine: string; ignore: string }> = {
  tr: {
    subject: 'Şifre sıfırlama',
    intro: 'Şifrenizi sıfırlamak için aşağıdaki bağlantıyı açın. Bağlantı 1 saat geçerlidir.',
    tokenLine: 'Uygulamada isterseniz bu kodu girebilirsiniz:',
    ignore: 'Bu isteği siz yapmadıysanız bu e-postayı yok sayabilirsiniz; şifreniz değişmez.',
  },
  en: {
    subject: 'Reset your password',
    intro: 'Open the link below to reset your password. The link is valid for 1 hour.',
    tokenLine: 'Or enter this code in the app:',
    ignore: 'If you did not ask for this, ignore this email; your password stays the same.',
  },
};

/** The password-reset message: the link `PUBLIC_BASE_URL/reset-password?token=…` and the raw token. */
export function passwordResetMail(
  lang: MailLang,
  to: string,
  params: { publicBaseUrl: string; token: string },
): MailMessage {
  const copy = RESET_COPY[lang];
  const link = `${params.publicBaseUrl}/reset-password?token=${encodeURIComponent(params.token)}`;
  const text = [copy.intro, '', link, '', copy.tokenLine, params.token, '', copy.ignore].join('\n');
  const html = [
    `<p>${escapeHtml(copy.intro)}</p>`,
    `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
    `<p>${escapeHtml(copy.tokenLine)}<br><code>${escapeHtml(params.token)}</code></p>`,
    `<p>${escapeHtml(copy.ignore)}</p>`,
  ].join('\n');
  return { to, subject: copy.subject, text, html };
}
