import { execFileSync } from 'node:child_process';

/**
 * Debian's Chromium (no browser download works here): CHROMIUM_PATH, else the first of these on
 * PATH. Shared by the e2e config and `npm run bench:web`.
 */
export function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    try {
      return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim();
    } catch {
      // try the next name
    }
  }
  throw new Error('No Chromium found: apt-get install -y chromium, or set CHROMIUM_PATH');
}

/** Headless, and without the background connections this machine's closed network refuses. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
