import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { logLinesOf } from '../../helpers/logs.js';

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

const logsOf = async (run: Parameters<typeof logLinesOf>[1]) =>
  (await logLinesOf(t, run)).map((line) => JSON.parse(line) as LogLine);

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
