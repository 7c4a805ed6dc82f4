import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config/index.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';

/** Issue 28, H3: slowly sent requests are cut after REQUEST_TIMEOUT_SECONDS. */

let t: TestApp;
let port: number;

beforeAll(async () => {
  t = await buildTestApp({ env: { REQUEST_TIMEOUT_SECONDS: '1' } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(async () => t.close());

/**
 * Sends `head`, then one byte of `trickle` every `everyMs`; resolves with what the server answered
 * and how long it kept the connection, or rejects if it is still open after `giveUpMs`.
 */
function trickle(head: string, drip: string, everyMs: number, giveUpMs: number) {
  return new Promise<{ answer: string; ms: number }>((resolve, reject) => {
    const started = performance.now();
    let answer = '';
    let sent = 0;
    const socket = connect(port, '127.0.0.1', () => socket.write(head));
    const timer = setInterval(() => {
      if (socket.writable) socket.write(drip[sent++ % drip.length]!);
    }, everyMs);
    const giveUp = setTimeout(() => {
      socket.destroy();
      reject(new Error(`still open after ${giveUpMs} ms`));
    }, giveUpMs);
    const done = () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      resolve({ answer, ms: performance.now() - started });
    };
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('close', done);
    socket.on('error', done);
  });
}

describe('H3: request timeouts', () => {
  it('cuts a body trickled byte by byte once the request timeout is over: 408', async () => {
    const { answer, ms } = await trickle(
      'POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n',
      '{"email":"a@b.co"}',
      200,
      6000,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(ms).toBeGreaterThan(900);
    expect(ms).toBeLessThan(3500);
  });

  it('cuts headers trickled byte by byte', async () => {
    const { answer, ms } = await trickle(
      'GET /health HTTP/1.1\r\nHost: x\r\n',
      'X-Slow: aaaaaaaa',
      200,
      6000,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(ms).toBeLessThan(3500);
  });

  it('still answers a request sent in time', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/health`);
    expect(res.status).toBe(200);
  });

  it('defaults to 30 s and validates REQUEST_TIMEOUT_SECONDS', () => {
    expect(loadConfig({}).http.requestTimeoutMs).toBe(30_000);
    expect(loadConfig({ REQUEST_TIMEOUT_SECONDS: '5' }).http.requestTimeoutMs).toBe(5000);
    for (const bad of ['0', 'abc', '-1', '100000']) {
      expect(() => loadConfig({ REQUEST_TIMEOUT_SECONDS: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ REQUEST_TIMEOUT_SECONDS: bad })).toThrow(/REQUEST_TIMEOUT_SECONDS/);
    }
  });
});
