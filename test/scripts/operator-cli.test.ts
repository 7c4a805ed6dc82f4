import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openServices, runOperatorCli, type CliServices } from '../../scripts/operator-cli.js';
import { auditLog, operators } from '../../src/db/schema/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { tokenOfLink } from '../helpers/operators.js';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (s: string) => out.push(s), err: (s: string) => err.push(s) }, out, err };
}

describe('npm run operator (issue 33 O1)', () => {
  let t: TestApp;
  let services: () => Promise<CliServices>;
  beforeAll(async () => {
    t = await buildTestApp();
    services = async () => ({
      operators: t.container.operators,
      mailTransport: 'outbox',
      close: async () => {},
    });
  });
  afterAll(() => t.close());

  const run = async (...argv: string[]) => {
    const c = capture();
    const code = await runOperatorCli(argv, c.io, services);
    return { code, out: c.out.join('\n'), err: c.err.join('\n') };
  };

  it('creates the first Owner without asking anything and prints the one-time link', async () => {
    const res = await run('create', '--email', ' First@Owner.Example ', '--role', 'Owner', '--name', 'Fay');
    expect(res.code).toBe(0);
    expect(res.out).toContain('Invited first@owner.example as Owner.');
    expect(res.out).toMatch(/works once, until \d{4}-\d\d-\d\d \d\d:\d\d UTC, 24 hours/);
    const link = /(http\S+\/admin\/enrol#\S+)/.exec(res.out)![1]!;
    const preview = await t.app.inject({ url: `/api/admin/v1/operator/enrolment/${tokenOfLink(link)}` });
    expect(preview.json()).toMatchObject({ email: 'first@owner.example', name: 'Fay', role: 'owner' });
    const [row] = await t.database.db
      .select()
      .from(operators)
      .where(eq(operators.email, 'first@owner.example'));
    expect(row).toMatchObject({ createdBy: 'cli', status: 'INVITED' });
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, row!.id), eq(auditLog.action, 'operator.create')));
    expect(audit!.actor).toBe('cli');
  });

  it('refuses bad input with a clear message and a non-zero status', async () => {
    const usage = [
      await run(),
      await run('frobnicate'),
      await run('create', '--role', 'owner'),
      await run('create', '--email', 'not-an-address', '--role', 'owner'),
      await run('create', '--email', 'x@ops.example', '--role', 'god'),
      await run('create', '--email', 'x@ops.example'),
      await run('create', '--email', 'x@ops.example', '--role', 'owner', '--unknown'),
    ];
    for (const res of usage) {
      expect(res.code).toBe(2);
      expect(res.err).toContain('Usage:');
    }
    expect(usage[3]!.err).toContain('--email "not-an-address" is not an e-mail address');
    expect(usage[4]!.err).toContain('--role "god" is not a role');
    const dup = await run('create', '--email', 'FIRST@owner.example', '--role', 'support');
    expect(dup.code).toBe(1);
    expect(dup.err).toContain('reset --email first@owner.example');
    const unknown = await run('reset', '--email', 'nobody@ops.example');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('No operator has the address nobody@ops.example');
    expect((await run('--help')).code).toBe(0);
  });

  it('reset prints a new link and the older one stops working', async () => {
    await run('create', '--email', 'lost@ops.example', '--role', 'support');
    const first = await run('reset', '--email', 'lost@ops.example');
    const second = await run('reset', '--email', 'Lost@ops.example');
    expect(second.code).toBe(0);
    expect(second.out).toContain('older links no longer work');
    const linkOf = (out: string) => tokenOfLink(/(http\S+\/admin\/enrol#\S+)/.exec(out)![1]!);
    const status = async (out: string) =>
      (await t.app.inject({ url: `/api/admin/v1/operator/enrolment/${linkOf(out)}` })).statusCode;
    expect(await status(first.out)).toBe(404);
    expect(await status(second.out)).toBe(200);
    const list = await run('list');
    expect(list.out).toMatch(/lost@ops\.example\s+Support\s+INVITED\s+never signed in/);
  });
});

describe('npm run operator on the embedded database', () => {
  it('opens DATA_DIR as the service does, and refuses while another process holds it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'operator-cli-'));
    try {
      const env = { DATA_DIR: dir, DATABASE_URL: '', PUBLIC_BASE_URL: 'https://console.example' };
      const c = capture();
      expect(
        await runOperatorCli(['create', '--email', 'o@ops.example', '--role', 'owner'], c.io, () =>
          openServices(env),
        ),
      ).toBe(0);
      expect(c.out.join('\n')).toContain('https://console.example/admin/enrol#');
      // The service (another live process) holds the directory.
      writeFileSync(join(dir, 'service.lock'), `1 ${hostname()}\n`);
      const held = capture();
      expect(await runOperatorCli(['list'], held.io, () => openServices(env))).toBe(1);
      expect(held.err.join('\n')).toMatch(/in use by process 1 .*stop the service/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
