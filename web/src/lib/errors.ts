import { ApiError } from '../api/client';
import type { MessageKey, Translate } from '../i18n';
import en from '../i18n/en.json';

/**
 * The text shown for a failed request: our own en/tr message for a known error code
 * (key `error.<CODE>`), otherwise the API's message (already in the UI language via Accept-Language).
 */
export function errorText(error: unknown, t: Translate): string {
  if (error instanceof ApiError) {
    const key = `error.${error.code}`;
    if (key in en) return t(key as MessageKey);
    return error.message || t('error.generic');
  }
  return t('error.generic');
}
