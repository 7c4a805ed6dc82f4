/**
 * The login reference: bare node:http doing only what makes a login expensive, one argon2id
 * verify of the same hash (same parameters: they are in the hash) per request, after reading
 * the request body. Child process of bench/run.ts: `argon2-server.ts <port> <hash file>`.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { verify } from '@node-rs/argon2';

const [port, hashFile] = process.argv.slice(2);
const hash = readFileSync(hashFile!, 'utf8').trim();
const password = process.env.BENCH_PASSWORD ?? 'bench-password-0123';

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    void verify(hash, password).then((ok) => {
      const body = JSON.stringify({ success: ok });
      response.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
      response.end(body);
    });
  });
});
server.listen(Number(port), '127.0.0.1', () => process.send?.({ listening: true }));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
