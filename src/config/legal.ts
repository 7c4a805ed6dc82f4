/** The public legal pages (/terms, /privacy, /refund-policy, /contact): who sells, and whose texts. */

import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ConfigError, optional, str, type Env } from './parse.js';

/**
 * The Markdown templates shipped in the repository (`legal/` at its root). This file and the server
 * bundle (dist/bundle/) are both two levels below the repository, so the same relative path finds
 * the folder from the sources and from the build, as the migrations folder is found.
 */
export const SHIPPED_LEGAL_DIR = fileURLToPath(new URL('../../legal', import.meta.url));

export interface LegalConfig {
  /** The seller named on the legal pages, the footer and in mails; SUPPORT_EMAIL is the mail area's. */
  company: { name: string; address: string };
  legal: {
    shippedDir: string;
    /** LEGAL_DIR: a `<page>.<lang>.md` here replaces the shipped file of that name. */
    overrideDir: string | undefined;
  };
}

export function legalConfig(env: Env): LegalConfig {
  const overrideDir = optional(env, 'LEGAL_DIR');
  // A mistyped directory would silently serve the shipped texts instead of the operator's own.
  if (overrideDir !== undefined && !isDirectory(overrideDir)) {
    throw new ConfigError(`LEGAL_DIR must be an existing directory, got "${overrideDir}"`);
  }
  return {
    company: {
      name: str(env, 'COMPANY_NAME', 'Roam eSIM'),
      address: str(env, 'COMPANY_ADDRESS', 'Address not configured (COMPANY_ADDRESS)'),
    },
    legal: { shippedDir: SHIPPED_LEGAL_DIR, overrideDir },
  };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
