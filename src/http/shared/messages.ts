import type { ErrorCode } from '../../domain/errors.js';

export type Lang = 'tr' | 'en';

/** User-facing Mobile API error messages (Turkish by default, English on request). */
const MESSAGES: Record<ErrorCode, Record<Lang, string>> = {
  VALIDATION_ERROR: { tr: 'Geçersiz istek.', en: 'Invalid request.' },
  INVALID_TOKEN: { tr: 'Bağlantı geçersiz veya süresi dolmuş.', en: 'The link is invalid or has expired.' },
  INVALID_SIGNATURE: { tr: 'İmza doğrulanamadı.', en: 'Signature verification failed.' },
  UNAUTHORIZED: { tr: 'Oturum açmanız gerekiyor.', en: 'You need to sign in.' },
  INVALID_CREDENTIALS: { tr: 'E-posta veya şifre hatalı.', en: 'Incorrect email or password.' },
  CURRENT_PASSWORD_INCORRECT: { tr: 'Mevcut şifre hatalı.', en: 'The current password is incorrect.' },
  INSUFFICIENT_BALANCE: { tr: 'Cüzdan bakiyeniz yetersiz.', en: 'Your wallet balance is too low.' },
  ACCOUNT_SUSPENDED: { tr: 'Hesabınız askıya alınmış.', en: 'Your account is suspended.' },
  CSRF_REJECTED: { tr: 'İstek kaynağı doğrulanamadı.', en: 'The request origin could not be verified.' },
  FORBIDDEN: { tr: 'Bu işlem için yetkiniz yok.', en: 'You are not allowed to do this.' },
  NOT_FOUND: { tr: 'Bulunamadı.', en: 'Not found.' },
  ACCOUNT_NOT_FOUND: { tr: 'Hesap bulunamadı.', en: 'Account not found.' },
  ORDER_NOT_FOUND: { tr: 'Sipariş bulunamadı.', en: 'Order not found.' },
  COUNTRY_NOT_FOUND: { tr: 'Ülke bulunamadı.', en: 'Destination not found.' },
  PLAN_NOT_FOUND: { tr: 'Paket bulunamadı.', en: 'Plan not found.' },
  ESIM_NOT_FOUND: { tr: 'eSIM bulunamadı.', en: 'eSIM not found.' },
  TICKET_NOT_FOUND: { tr: 'Destek talebi bulunamadı.', en: 'Support ticket not found.' },
  PAYMENT_NOT_FOUND: { tr: 'Ödeme bulunamadı.', en: 'Payment not found.' },
  EMAIL_TAKEN: { tr: 'Bu e-posta adresi zaten kayıtlı.', en: 'This email address is already registered.' },
  WALLET_NOT_EMPTY: {
    tr: 'Cüzdanınızda bakiye varken hesabınız silinemez.',
    en: 'The account cannot be deleted while the wallet has a balance.',
  },
  IDEMPOTENCY_KEY_REUSED: {
    tr: 'Bu Idempotency-Key farklı bir istekle kullanılmış.',
    en: 'This Idempotency-Key was used with a different request.',
  },
  IDEMPOTENCY_KEY_IN_USE: {
    tr: 'Bu Idempotency-Key ile bir istek hâlâ işleniyor.',
    en: 'A request with this Idempotency-Key is still in progress.',
  },
  CONFLICT: { tr: 'İstek mevcut durumla çakışıyor.', en: 'The request conflicts with the current state.' },
  INVALID_STATE: {
    tr: 'Bu işlem şu anda yapılamaz.',
    en: 'This action is not possible in the current state.',
  },
  PAYLOAD_TOO_LARGE: { tr: 'İstek gövdesi çok büyük.', en: 'The request body is too large.' },
  UNSUPPORTED_MEDIA_TYPE: { tr: 'Desteklenmeyen içerik türü.', en: 'Unsupported content type.' },
  URI_TOO_LONG: { tr: 'İstek adresi çok uzun.', en: 'The request URL is too long.' },
  HEADERS_TOO_LARGE: { tr: 'İstek başlıkları çok büyük.', en: 'The request headers are too large.' },
  RATE_LIMITED: {
    tr: 'Çok fazla istek gönderildi, lütfen biraz sonra tekrar deneyin.',
    en: 'Too many requests, please try again later.',
  },
  INTERNAL_ERROR: { tr: 'Beklenmeyen bir hata oluştu.', en: 'An unexpected error occurred.' },
  PROVIDER_ERROR: { tr: 'Sağlayıcı şu anda yanıt vermiyor.', en: 'The provider is not responding.' },
  FULFILLMENT_FAILED: {
    tr: 'Ödemeniz alındı ancak eSIM oluşturulamadı; tekrar denenecek. Tekrar ödeme yapmayın.',
    en: 'Your payment was taken but the eSIM could not be issued yet; it will be retried. Do not pay again.',
  },
  SERVICE_UNAVAILABLE: { tr: 'Hizmet geçici olarak kullanılamıyor.', en: 'Service temporarily unavailable.' },
};

export function messageFor(code: ErrorCode, lang: Lang): string {
  return MESSAGES[code][lang];
}

/** `tr` unless Accept-Language prefers English (highest q wins; ties go to the first listed). */
export function preferredLang(acceptLanguage: string | undefined): Lang {
  if (!acceptLanguage) return 'tr';
  let best: { lang: Lang; q: number } | undefined;
  for (const part of acceptLanguage.split(',')) {
    const [tag, ...params] = part.trim().toLowerCase().split(';');
    const base = tag?.split('-')[0];
    if (base !== 'tr' && base !== 'en') continue;
    const qParam = params.find((p) => p.trim().startsWith('q='));
    const q = qParam ? Number(qParam.trim().slice(2)) : 1;
    if (!Number.isFinite(q) || q <= 0) continue;
    if (!best || q > best.q) best = { lang: base, q };
  }
  return best?.lang ?? 'tr';
}
