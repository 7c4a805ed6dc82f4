import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  headers: http.IncomingHttpHeaders;
  body: string;
  url: string;
}

/**
 * A partner's webhook receiver on 127.0.0.1:<port> (ports 3400-3449 are this suite's). It records
 * every POST and answers with `status` and `body` after `delayMs` (changeable between deliveries).
 */
export async function startReceiver(port: number) {
  const received: ReceivedWebhook[] = [];
  const state = { status: 200, delayMs: 0, body: 'ok' as string | Buffer };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        url: req.url ?? '',
      });
      setTimeout(() => {
        res.statusCode = state.status;
        res.end(state.body);
      }, state.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: actual } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${actual}/hooks`,
    port: actual,
    received,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
