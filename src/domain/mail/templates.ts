import type { MailMessage } from './mailer.js';
import { firstUiLanguage, type UiLanguage } from '../../lib/languages.js';

/** Mail is written in every UI language (src/lib/languages.ts). */
export type MailLang = UiLanguage;

/** The first candidate (a form's language, the account's locale) we write mail in, else English. */
export function mailLang(...candidates: Array<string | null | undefined>): MailLang {
  return firstUiLanguage(candidates, 'en');
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
  de: {
    subject: 'Passwort zurücksetzen',
    intro:
      'Öffnen Sie den folgenden Link, um Ihr Passwort zurückzusetzen. Der Link ist 1 Stunde lang gültig.',
    tokenLine: 'Oder geben Sie diesen Code in der App ein:',
    ignore:
      'Falls Sie dies nicht angefordert haben, ignorieren Sie diese E-Mail; Ihr Passwort bleibt unverändert.',
  },
  fr: {
    subject: 'Réinitialisation de votre mot de passe',
    intro: 'Ouvrez le lien ci-dessous pour réinitialiser votre mot de passe. Le lien est valable 1 heure.',
    tokenLine: 'Ou saisissez ce code dans l’application :',
    ignore:
      'Si vous n’êtes pas à l’origine de cette demande, ignorez cet e-mail ; votre mot de passe reste inchangé.',
  },
  es: {
    subject: 'Restablecer la contraseña',
    intro: 'Abra el siguiente enlace para restablecer su contraseña. El enlace es válido durante 1 hora.',
    tokenLine: 'O introduzca este código en la aplicación:',
    ignore: 'Si no ha solicitado este cambio, ignore este correo; su contraseña seguirá siendo la misma.',
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
