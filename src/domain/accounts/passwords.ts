import { availableParallelism } from 'node:os';
import { hash as argonHash, verify as argonVerify } from '@node-rs/argon2';
import pLimit from 'p-limit';
import { AppError } from '../errors.js';

/**
 * Every argon2id operation takes 19 MiB for its duration. Running more of them at once than there
 * are cores finishes none sooner, but a burst of logins (or an attacker's) would hold 19 MiB per
 * libuv thread: at most one per core runs, the rest wait their turn.
 */
const argon2Slots = pLimit(Math.max(1, availableParallelism()));
/** How many argon2id operations run and wait now (for tests and metrics). */
export const argon2Load = () => ({ running: argon2Slots.activeCount, waiting: argon2Slots.pendingCount });
const hash = (password: string) => argon2Slots(() => argonHash(password));
const verify = (stored: string, password: string) => argon2Slots(() => argonVerify(stored, password));

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;

/**
 * argon2id with the library defaults (m=19456 KiB, t=2, p=1: the OWASP recommendation). Hashing
 * is slow on purpose, so callers hash before opening a transaction.
 */
export function hashPassword(password: string): Promise<string> {
  assertPasswordLength(password, 'password');
  return hash(password);
}

/**
 * A real hash of a throw-away value. Verifying against it when an account is unknown (or has no
 * password) costs the same as a real check, so login time does not reveal whether an address
 * is registered.
 */
const dummyHash = hash('timing-equaliser-never-a-real-password');

export async function verifyPassword(storedHash: string | null, password: string): Promise<boolean> {
  if (password.length > PASSWORD_MAX_LENGTH) return false;
  if (!storedHash) {
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}

export function assertPasswordLength(password: string, field: string): void {
  if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) {
    throw new AppError(
      'VALIDATION_ERROR',
      `${field} must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters`,
      { issues: [{ field, message: 'length out of range' }] },
    );
  }
}
