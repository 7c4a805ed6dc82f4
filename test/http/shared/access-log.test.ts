import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { createContainer } from '../../../src/container.js';
import { buildApp, loggerOptions } from '../../../src/http/app.js';
import { silentLogger } from '../../../src/lib/logger.js';
import { ADMIN_TOKEN, BASE_URL, buildTestApp, type TestApp } from '../../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  req: { method: string; url: string };
  res: { statusCode: number };
  responseTime: number;
}

/** The app at LOG_LEVEL=info, its log lines parsed. */
async function logsOf(run: (app: Awaited<ReturnType<typeof buildApp>>) => Promise<void>) {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const config = loadConfig({
    PUBLIC_BASE_URL: BASE_URL,
    ADMIN_TOKEN,
    LOG_LEVEL: 'info',
    WORKER_ENABLED: 'false',
    DATABASE_URL: 'memory://',
  });
  const container = createContainer({ config, database: t.database, clock: t.clock, log: silentLogger });
  const app = await buildApp({ container, logger: { ...(loggerOptions(config) as object), stream } });
  try {
    await run(app);
  } finally {
    await app.close();
    await container.close();
  }
  return lines.map((line) => JSON.parse(line) as LogLine);
}

describe('access log', () => {
  it('writes one line per request, after the response: id, method, redacted URL, status, time', async () => {
    const logs = await logsOf(async (app) => {
      await app.inject({ url: '/health', headers: { 'x-request-id': 'req-one' } });
      await app.inject({
        url: '/api/v1/auth/reset-password?token=secret-in-query',
        headers: { 'x-request-id': 'req-two' },
      });
    });
    const requestLines = logs.filter((l) => typeof l.reqId === 'string' && l.reqId.startsWith('req-'));
    expect(requestLines.map((l) => [l.reqId, l.msg])).toEqual([
      ['req-one', 'request completed'],
      ['req-two', 'request completed'],
    ]);
    const [first, second] = requestLines;
    expect(first).toMatchObject({
      level: 30,
      req: { method: 'GET', url: '/health' },
      res: { statusCode: 200 },
    });
    expect(first!.responseTime).toBeGreaterThan(0);
    expect(second!.req.url).toBe('/api/v1/auth/reset-password?token=[REDACTED]');
    expect(JSON.stringify(logs)).not.toContain('secret-in-query');
  });
});
