import { hash as argonHash, verify as argonVerify } from '@node-rs/argon2';
import { availableParallelism } from 'node:os';
import type { Clock } from '../../lib/clock.js';
import { createWorkGate, GateFullError, type WorkGate } from '../../lib/work-gate.js';
import { AppError } from '../errors.js';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;

/**
 * A real hash of a throw-away value, made once per process. Verifying against it when an account
 * is unknown (or has no password) costs the same as a real check, so login time does not reveal
 * whether an address is registered.
 */
let dummyHash: Promise<string> | undefined;

/** The gate refused: 429 when this client holds its share, 503 when the whole queue is full. */
function refused(error: unknown): never {
  if (!(error instanceof GateFullError)) throw error;
  const headers = { 'retry-after': String(error.retryAfterSeconds) };
  if (error.reason === 'key') {
    throw new AppError(
      'RATE_LIMITED',
      `Too many password checks from this address at once; retry in ${error.retryAfterSeconds} s`,
      undefined,
      headers,
    );
  }
  throw new AppError(
    'SERVICE_UNAVAILABLE',
    'Too many password checks at once; try again shortly',
    undefined,
    headers,
  );
}

/**
 * argon2id with the library defaults (m=19456 KiB, t=2, p=1: the OWASP recommendation).
 * Every operation (login, registration, reset, change) runs through one gate: at
 * most one per core at a time (more finish none sooner and hold 19 MiB each), a bounded queue
 * behind them, and a share per client address, so a burst from one client is refused (429)
 * instead of making everyone else's login wait behind it (issue 28 H2, src/lib/work-gate.ts).
 * `client` is the caller's address; undefined is the service's own work. Hashing is slow on
 * purpose, so callers hash before opening a transaction.
 */
export function createPasswords(gate: WorkGate) {
  const gated = <T>(client: string | undefined, work: () => Promise<T>) =>
    gate.run(client, work).catch(refused);

  return {
    hash(password: string, client?: string): Promise<string> {
      assertPasswordLength(password, 'password');
      return gated(client, () => argonHash(password));
    },

    async verify(storedHash: string | null, password: string, client?: string): Promise<boolean> {
      if (password.length > PASSWORD_MAX_LENGTH) return false;
      if (!storedHash) {
        dummyHash ??= argonHash('timing-equaliser-never-a-real-password');
        const dummy = await dummyHash;
        await gated(client, () => argonVerify(dummy, password).catch(() => false));
        return false;
      }
      return gated(client, () => argonVerify(storedHash, password).catch(() => false));
    },

    /** How many argon2id operations run and wait now (tests, metrics). */
    load: () => gate.load(),
  };
}

export type Passwords = ReturnType<typeof createPasswords>;

/** The process's password hashing: one argon2 operation per core, behind the configured bounds. */
export function createPasswordHashing(
  limits: { passwordHashQueue: number; passwordHashPerClient: number },
  clock: Clock,
): Passwords {
  const concurrency = Math.max(1, availableParallelism());
  const { passwordHashQueue: maxQueued, passwordHashPerClient: perKey } = limits;
  return createPasswords(createWorkGate({ concurrency, maxQueued, perKey, clock }));
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
