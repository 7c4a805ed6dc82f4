import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyText, httpTransport, RESPONSE_BODY_LIMIT } from '../../../src/domain/webhooks/transport.js';

/** The delivery log keeps the first 1 KB of an answer; the transport reads no more (issue 32 C2). */
describe('webhook transport: the answer body', () => {
  let server: http.Server;
  let port = 0;
  let written = 0;
  beforeAll(async () => {
    // Answers an endless body: 64 KiB chunks until the client goes away.
    server = http.createServer((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) {
          written += chunk.length;
          if (written > 64 * 1024 * 1024) return res.end();
        }
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('keeps 1 KB of an endless answer and hangs up', async () => {
    const started = Date.now();
    const response = await httpTransport(
      { url: new URL(`http://127.0.0.1:${port}/hooks`), address: '127.0.0.1', family: 4 },
      { headers: {}, body: '{}', timeoutMs: 5000 },
    );
    expect(response.status).toBe(502);
    expect(response.body).toBe('a'.repeat(RESPONSE_BODY_LIMIT));
    expect(Date.now() - started).toBeLessThan(2000);
    // The server stopped well before its 64 MiB: the client closed the connection.
    expect(written).toBeLessThan(16 * 1024 * 1024);
  });

  it('cuts at 1024 bytes, marks a split character, removes control characters', () => {
    expect(bodyText(Buffer.from('x'.repeat(2000)))).toHaveLength(1024);
    const split = bodyText(Buffer.from(`${'x'.repeat(1023)}é`));
    expect(split).toBe(`${'x'.repeat(1023)}\uFFFD`);
    expect(bodyText(Buffer.from('a\u0000b\u001bc\td\r\ne\u007f'))).toBe('abc\td\r\ne');
  });
});
