import type { ProviderPackage } from '../types.js';

/** Deterministic sandbox catalogue. Owned by the catalog work. */
export function sandboxListPackages(): ProviderPackage[] {
  return [];
}
