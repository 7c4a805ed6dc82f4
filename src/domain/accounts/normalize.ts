import { AppError } from '../errors.js';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const EMAIL_MAX_LENGTH = 254;
export const NAME_MAX_LENGTH = 100;

function invalid(field: string, message: string): AppError {
  return new AppError('VALIDATION_ERROR', `${field} ${message}`, { issues: [{ field, message }] });
}

/** Addresses are compared and stored trimmed and lower-cased: `A@X.com ` and `a@x.com` are one account. */
export function normalizeEmail(raw: string, field = 'email'): string {
  const email = raw.trim().toLowerCase();
  if (email.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(email)) {
    throw invalid(field, 'must be a valid email address');
  }
  return email;
}

export function normalizeName(raw: string, field: string): string {
  const name = raw.trim();
  if (name.length < 1 || name.length > NAME_MAX_LENGTH) {
    throw invalid(field, `must be 1 to ${NAME_MAX_LENGTH} characters after trimming`);
  }
  return name;
}

export function normalizeLocale(raw: string, field = 'locale'): string {
  const locale = raw.trim().toLowerCase();
  if (!/^[a-z]{2}$/.test(locale)) throw invalid(field, 'must be a 2-letter language code');
  return locale;
}
