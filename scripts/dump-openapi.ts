/**
 * Writes the three OpenAPI documents to `openapi/{mobile,partner,admin}.json` from the route
 * schemas, without a server or a database on disk. The web app's client and the Partner SDK are
 * generated from these files (`npm run generate` runs this first; `generate:check` fails when stale).
 *
 *   tsx scripts/dump-openapi.ts           # write
 *   tsx scripts/dump-openapi.ts --check   # exit 1 when a written file differs
 */
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config/index.js';
import { openContainer } from '../src/container/open.js';
import { buildApp } from '../src/http/app.js';
import { silentLogger } from '../src/lib/logger.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const documents = {
  mobile: '/api/v1/openapi.json',
  partner: '/api/public/v1/openapi.json',
  admin: '/api/admin/v1/openapi.json',
} as const;

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const config = loadConfig({
    DATABASE_URL: 'memory://',
    ADMIN_TOKEN: 'openapi-dump-admin-token',
    PUBLIC_BASE_URL: 'http://localhost:3000',
    WORKER_ENABLED: 'false',
    LOG_LEVEL: 'silent',
  });
  const container = await openContainer(config, { log: silentLogger });
  const app = await buildApp({ container, logger: false });
  await app.ready();
  let stale = 0;
  try {
    for (const [name, path] of Object.entries(documents)) {
      const response = await app.inject({
        method: 'GET',
        url: path,
        headers: { authorization: `Bearer ${config.adminToken}` },
      });
      if (response.statusCode !== 200) throw new Error(`${path} answered ${response.statusCode}`);
      const text = `${JSON.stringify(JSON.parse(response.body), null, 2)}\n`;
      const file = join(root, 'openapi', `${name}.json`);
      if (check) {
        const current = await readFile(file, 'utf8').catch(() => '');
        if (current !== text) {
          process.stderr.write(`openapi/${name}.json is stale: run npm run generate\n`);
          stale++;
        }
      } else {
        await mkdir(dirname(file), { recursive: true });
        await writeFile(file, text);
      }
    }
  } finally {
    await app.close();
    await container.close();
  }
  if (stale) process.exit(1);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
