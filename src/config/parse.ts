/**
 * The parsers every area of the configuration reads its variables with. Each takes the variable's
 * name, so a bad value throws a ConfigError whose message starts with that name.
 */

export class ConfigError extends Error {}

export type Env = Record<string, string | undefined>;

export function str(env: Env, name: string, fallback: string): string {
  const v = env[name];
  return v === undefined || v === '' ? fallback : v;
}

export function optional(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v === '' ? undefined : v;
}

export function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^-?\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be an integer, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

export function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

export function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = str(env, name, fallback);
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

/** The value as given (not normalised), checked to parse with one of `protocols`. */
export function url(
  env: Env,
  name: string,
  fallback: string | undefined,
  protocols: string[],
): string | undefined {
  const raw = optional(env, name) ?? fallback;
  if (raw === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    // The value itself stays out of the message: a URL may carry a password.
    throw new ConfigError(`${name} must be a URL, got a value that does not parse`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must use one of ${protocols.join(', ')}`);
  }
  return raw;
}

/** An optional token or secret; when set, at least `minLength` characters (never echoed). */
export function secret(env: Env, name: string, minLength: number): string | undefined {
  const value = optional(env, name);
  if (value !== undefined && value.length < minLength) {
    throw new ConfigError(`${name} must be at least ${minLength} characters`);
  }
  return value;
}

/** For a variable another one's value makes necessary; `why` names that other setting. */
export function required(name: string, value: string | undefined, why: string): string {
  if (!value) throw new ConfigError(`${name} is required when ${why}`);
  return value;
}
