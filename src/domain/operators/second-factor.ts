import { randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import { sha256Hex } from '../../lib/crypto.js';

/**
 * The console's second factor (issue 33 O1): TOTP per RFC 6238 with the parameters every
 * authenticator app understands (SHA1, 6 digits, 30 s), and single-use recovery codes.
 */
const PERIOD_S = 30;
const DIGITS = 6;
/** ±1 step: a phone whose clock is up to ~30 s off, or a code typed as it rolled over. */
const WINDOW = 1;

export const RECOVERY_CODE_COUNT = 10;
/** No 0/o, 1/l/i: a code copied from paper is read back without guessing. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const RECOVERY_PATTERN = /^[a-z0-9]{4}-?[a-z0-9]{4}$/;

/** A fresh shared secret: 20 random bytes (RFC 4226's recommended length), base32. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totpOf(secret: string, label = 'operator', issuer = ''): TOTP {
  return new TOTP({
    issuer,
    label,
    secret: Secret.fromBase32(secret),
    algorithm: 'SHA1',
    digits: DIGITS,
    period: PERIOD_S,
  });
}

/** The `otpauth://totp/…` URI an authenticator app scans. */
export function otpauthUri(secret: string, email: string, issuer: string): string {
  return totpOf(secret, email, issuer).toString();
}

/** The QR code of the URI, as an SVG document (the enrolment page shows it inline). */
export function qrSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
}

/** The code for `at` (tests and the e2e fixture compute what a phone would show). */
export function totpCode(secret: string, at: Date): string {
  return totpOf(secret).generate({ timestamp: at.getTime() });
}

export const isTotpCode = (code: string) => /^\d{6}$/.test(code);

/**
 * The time step the code belongs to (within ±1 step of `now`), or null when it matches none.
 * The caller accepts a step only when it is later than the last one accepted (RFC 6238 §5.2:
 * a code works once).
 */
export function totpStep(secret: string, code: string, now: Date): number | null {
  if (!isTotpCode(code)) return null;
  const delta = totpOf(secret).validate({ token: code, timestamp: now.getTime(), window: WINDOW });
  if (delta === null) return null;
  return Math.floor(now.getTime() / 1000 / PERIOD_S) + delta;
}

/** `xxxx-xxxx`, 8 characters of a 31-letter alphabet (~40 bits). */
export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  const one = () => {
    let s = '';
    for (let i = 0; i < 8; i++) s += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
    return `${s.slice(0, 4)}-${s.slice(4)}`;
  };
  return Array.from({ length: count }, one);
}

export const isRecoveryCode = (code: string) => RECOVERY_PATTERN.test(code.trim().toLowerCase());

/**
 * What is stored of a recovery code: SHA-256 of the operator id and the code without its dash
 * (lower-cased), so the same code of two operators hashes apart. A recovery code stands in for
 * the TOTP code only; the password (argon2id) is still needed beside it.
 */
export function recoveryCodeHash(operatorId: string, code: string): string {
  return sha256Hex(`${operatorId}:${code.trim().toLowerCase().replace('-', '')}`);
}
