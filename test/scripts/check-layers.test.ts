import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { checkLayers, typeOnlyImports } from '../../scripts/layers.js';

const ROOT = new URL('../..', import.meta.url).pathname;

describe('layer check (npm run check:layers)', () => {
  it('tells type-only imports from value imports', () => {
    const imports = typeOnlyImports(
      [
        "import type { Container } from '../container.js';",
        "import { type A, type B as C } from './types.js';",
        "import { type D, e } from './mixed.js';",
        "import { f } from './value.js';",
        "import type { G } from './twice.js';",
        "import { h } from './twice.js';",
        "export type { I } from './reexport-type.js';",
        "export * from './reexport.js';",
        "const lazy = await import('./lazy.js');",
        "import pino from 'pino';",
      ].join('\n'),
    );
    expect(Object.fromEntries(imports)).toEqual({
      '../container.js': true,
      './types.js': true,
      './mixed.js': false,
      './value.js': false,
      './twice.js': false,
      './reexport-type.js': true,
      './reexport.js': false,
      './lazy.js': false,
    });
  });

  it('allows imports downwards and the allowed type-only ones, flags the rest', () => {
    const graph = {
      'main.ts': ['container.ts', 'http/app.ts', 'lifecycle.ts'],
      'container.ts': ['domain/orders/orders.service.ts', 'providers/esim/registry.ts', 'jobs/queue.ts'],
      'http/types.ts': ['container.ts'],
      'http/sandbox/hosted-page.ts': ['providers/payments/types.ts', 'domain/payments/settlement.ts'],
      'domain/orders/orders.service.ts': ['jobs/queue.ts', 'providers/esim/types.ts', 'db/client.ts'],
      'domain/events/partner-events.ts': ['http/shared/order-presenters.ts'],
      'providers/payments/stripe.ts': ['domain/errors.ts', 'lib/money.ts'],
      'jobs/dead-letter.ts': ['domain/audit/audit.service.ts'],
      'lib/app-secrets.ts': ['db/client.ts'],
      'db/client.ts': ['lib/clock.ts', 'config/index.ts'],
      'worker.ts': ['http/app.ts', 'lifecycle.ts'],
      'reconcile.ts': ['main.ts'],
      'scratch/tool.ts': [],
    };
    const typeOnly = new Set([
      'http/types.ts>container.ts',
      'http/sandbox/hosted-page.ts>providers/payments/types.ts',
    ]);
    const violations = checkLayers(graph, (from, to) => typeOnly.has(`${from}>${to}`));
    expect(violations.map((v) => `${v.from} -> ${v.to}`)).toEqual([
      'domain/events/partner-events.ts -> http/shared/order-presenters.ts',
      'providers/payments/stripe.ts -> domain/errors.ts',
      'jobs/dead-letter.ts -> domain/audit/audit.service.ts',
      'lib/app-secrets.ts -> db/client.ts',
      'worker.ts -> http/app.ts',
      'reconcile.ts -> main.ts',
      'scratch/tool.ts -> ',
    ]);
    // The same edge as a value import is a violation.
    expect(checkLayers({ 'http/types.ts': ['container.ts'] }, () => false)).toHaveLength(1);
  });

  it('keeps the domain off eSIM provider adapters: only the contract and the sandbox', () => {
    const graph = {
      'domain/events/provider-notifications.ts': [
        'providers/esim/types.ts',
        'providers/esim/sandbox/profiles.ts',
        'providers/esim/esimaccess/client.ts',
        'providers/esim/acme/webhooks.ts',
      ],
      'domain/testmode/test-provider.ts': ['providers/esim/sandbox/catalogue.ts'],
      'container.ts': ['providers/esim/esimaccess/index.ts'],
      'providers/esim/sandbox/index.ts': ['providers/esim/esimaccess/webhooks.ts'],
    };
    expect(checkLayers(graph, () => false)).toEqual([
      expect.objectContaining({
        to: 'providers/esim/esimaccess/client.ts',
        why: expect.stringMatching(/contract/),
      }),
      expect.objectContaining({ to: 'providers/esim/acme/webhooks.ts' }),
    ]);
  });

  it('fails on the planted cycle and violations of a fixture tree, and names each', async () => {
    const result = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'scripts/check-layers.ts', 'test/fixtures/layers'],
      { cwd: ROOT },
    ).then(
      () => ({ code: 0, stderr: '' }),
      (err: { code: number; stderr: string }) => ({ code: err.code, stderr: err.stderr }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      'cycle: db/client.ts > db/pglite.ts > db/client.ts',
      'layer: domain/orders.ts -> http/presenters.ts: domain may not import http, a layer above it',
      'layer: http/app.ts -> providers/sandbox.ts: http may import only types from providers',
      'layer: lib/money.ts -> config/index.ts: lib and config are siblings and do not import each other',
      'layer: providers/sandbox.ts -> jobs/queue.ts: providers and jobs are siblings and do not import each other',
      'layer: worker.ts -> http/app.ts: the worker process runs no HTTP app',
      'check:layers FAILED: 6 problem(s) in 12 files',
    ]);
  }, 60_000);
});
