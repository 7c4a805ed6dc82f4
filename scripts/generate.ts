/**
 * Every generated artefact, from one command and in dependency order:
 *   1. openapi/{mobile,partner,admin}.json   from the route schemas      (scripts/dump-openapi.ts)
 *   2. web/src/api/{mobile,admin}.d.ts        from openapi/*.json         (scripts/web-api-types.ts)
 *   3. sdk/src/generated/partner.ts           from openapi/partner.json   (sdk: npm run generate)
 *   4. sql/*.sql                              the hot statements' SQL     (scripts/sql-snapshots.ts)
 *
 *   npm run generate          # rewrite them all
 *   npm run generate:check    # CI: exit 1 naming every stale one; nothing is written
 *
 * The SDK step needs sdk/node_modules (`cd sdk && npm ci`).
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');

const steps: Array<{ artefact: string; command: string[]; cwd: string }> = [
  {
    artefact: 'openapi/*.json',
    command: ['npx', 'tsx', 'scripts/dump-openapi.ts', ...(check ? ['--check'] : [])],
    cwd: root,
  },
  {
    artefact: 'web/src/api/{mobile,admin}.d.ts',
    command: ['npx', 'tsx', 'scripts/web-api-types.ts', ...(check ? ['--check'] : [])],
    cwd: root,
  },
  {
    artefact: 'sdk/src/generated/partner.ts',
    command: ['npm', 'run', '--silent', check ? 'generate:check' : 'generate'],
    cwd: join(root, 'sdk'),
  },
  {
    artefact: 'sql/*.sql',
    command: ['npx', 'tsx', 'scripts/sql-snapshots.ts', ...(check ? ['--check'] : [])],
    cwd: root,
  },
];

const stale: string[] = [];
for (const step of steps) {
  const [bin, ...args] = step.command as [string, ...string[]];
  const result = spawnSync(bin, args, { cwd: step.cwd, stdio: 'inherit' });
  if (result.status !== 0) {
    if (!check) {
      process.stderr.write(`generate: ${step.artefact} failed (${step.command.join(' ')})\n`);
      process.exit(1);
    }
    stale.push(step.artefact);
  }
}
if (stale.length > 0) {
  process.stderr.write(`generate:check: stale ${stale.join(', ')}: run npm run generate and commit\n`);
  process.exit(1);
}
process.stdout.write(check ? 'generate:check: every generated file is current\n' : 'generate: done\n');
