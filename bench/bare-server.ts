/**
 * The baseline: bare node:http answering every request with the exact bytes (and content type)
 * the service answered for GET /destinations. Child process of bench/run.ts; reports its port
 * over IPC.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const [bodyFile, contentType = 'application/json; charset=utf-8'] = process.argv.slice(2);
const body = readFileSync(bodyFile!);
const headers = { 'content-type': contentType, 'content-length': String(body.length) };

const server = createServer((_request, response) => {
  response.writeHead(200, headers);
  response.end(body);
});
server.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.address() as AddressInfo).port });
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
