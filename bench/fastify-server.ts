/**
 * The framework's own ceiling for a catalog endpoint: Fastify (the service's version) with one
 * route answering the exact bytes (and content type) the service answered, no hooks, plugins or
 * logger. Reported beside bare node:http (bench/catalog.ts) so that the service's ratio can be
 * read against what the framework alone reaches on this machine. Child process of bench/run.ts:
 * `fastify-server.ts <port> <body file> [content type]`; tells its parent over IPC once listening.
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const [port, bodyFile, contentType = 'application/json; charset=utf-8'] = process.argv.slice(2);
const body = readFileSync(bodyFile!);

const app = Fastify({ logger: false });
app.get('/', (_request, reply) => {
  void reply.type(contentType).send(body);
});
await app.listen({ port: Number(port), host: '127.0.0.1' });
process.send?.({ listening: true });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
