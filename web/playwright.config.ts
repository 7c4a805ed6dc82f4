import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPath } from './e2e/chromium';
import { ADMIN_TOKEN, baseURL, COMPANY, port } from './e2e/env';

/**
 * End-to-end tests in Debian's Chromium (no browser download): the binary is CHROMIUM_PATH, else
 * `chromium` found on PATH. The server is a real `npm start` on embedded PGlite in a fresh
 * DATA_DIR, on E2E_PORT (default 3210).
 */
// The config is evaluated by the runner and by each worker: create the data dir once.
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'esim-e2e-'));
const root = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  testDir: './e2e',
  outputDir: './e2e/.results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromiumPath(),
      args: CHROMIUM_ARGS,
    },
  },
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } } },
  ],
  webServer: {
    // The first Owner is created the way the docs say on the embedded database: by the command,
    // before the service starts (admin-journey.spec.ts enrols them through the printed link).
    command:
      'npm run --silent operator -- create --email first-owner@e2e.example --role owner ' +
      '> "$DATA_DIR/first-owner.txt" && exec npm start',
    cwd: root,
    url: `${baseURL}/ready`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: baseURL,
      DATA_DIR: process.env.E2E_DATA_DIR,
      DATABASE_URL: '',
      REDIS_URL: '',
      ADMIN_TOKEN,
      LOG_LEVEL: 'warn',
      CARD_PROVIDER: 'sandbox',
      CRYPTO_PROVIDER: 'sandbox',
      ESIM_PROVIDER: 'sandbox',
      MAIL_TRANSPORT: 'outbox',
      COMPANY_NAME: COMPANY.name,
      COMPANY_ADDRESS: COMPANY.address,
      SUPPORT_EMAIL: COMPANY.supportEmail,
      LEGAL_DIR: '',
      // Every journey registers its own accounts from 127.0.0.1; the default (20 an hour per
      // address) is a production guard, not something these tests exercise.
      REGISTER_RATE_LIMIT: '1000',
      // Likewise sign-ins: every console journey signs its operators in from 127.0.0.1
      // (web/e2e/operator.ts); the limits are tested in test/http/admin/operators-sign-in.test.ts.
      AUTH_RATE_LIMIT: '1000',
      // Webhook journeys point endpoints at a receiver on 127.0.0.1 (refused in production).
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    },
  },
});
