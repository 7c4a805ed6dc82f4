/**
 * The catalog reference: bare node:http answering every request with the exact bytes (and
 * content type) the service answered for one catalog endpoint. Child process of bench/run.ts:
 * `bare-server.ts <port> <body file> [content type] [headers file]`; tells its parent over IPC
 * once listening.
 *
 * With a headers file (JSON: name, value, name, value…, as the service sent them), it sends those
 * headers instead of the usual two, with a new `x-request-id` per response as the service makes
 * one: what node:http itself reaches with the headers every service response must carry.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [port, bodyFile, contentType = 'application/json; charset=utf-8', headersFile] = process.argv.slice(2);
const body = readFileSync(bodyFile!);
const headers = { 'content-type': contentType, 'content-length': String(body.length) };
const recorded = headersFile ? (JSON.parse(readFileSync(headersFile, 'utf8')) as string[]) : undefined;

const server = createServer(
  recorded
    ? (_request, response) => {
        const sent = recorded.slice();
        sent.push('x-request-id', randomUUID());
        response.writeHead(200, sent);
        response.end(body);
      }
    : (_request, response) => {
        response.writeHead(200, headers);
        response.end(body);
      },
);
server.listen(Number(port), '127.0.0.1', () => process.send?.({ listening: true }));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
