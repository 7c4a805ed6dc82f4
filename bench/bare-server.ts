/**
 * The catalog reference: bare node:http answering every request with the exact bytes (and
 * content type) the service answered for one catalog endpoint. Child process of bench/run.ts:
 * `bare-server.ts <port> <body file> [content type]`; tells its parent over IPC once listening.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [port, bodyFile, contentType = 'application/json; charset=utf-8'] = process.argv.slice(2);
const body = readFileSync(bodyFile!);
const headers = { 'content-type': contentType, 'content-length': String(body.length) };

const server = createServer((_request, response) => {
  response.writeHead(200, headers);
  response.end(body);
});
server.listen(Number(port), '127.0.0.1', () => process.send?.({ listening: true }));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
