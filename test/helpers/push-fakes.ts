import { createECDH, generateKeyPairSync, randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createSecureServer, type Http2SecureServer } from 'node:http2';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jwtVerify } from 'jose';

/**
 * Local fakes of the three push services, each following its protocol closely enough that the
 * real adapters (src/providers/push/) talk to them unchanged: HTTPS (APNs: HTTP/2 over TLS) with
 * the self-signed certificate of the test run, which the workers trust through
 * NODE_EXTRA_CA_CERTS (vitest.config.ts, test/helpers/global-setup.ts).
 */

export interface FakeResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

function tls(): { key: Buffer; cert: Buffer } {
  const dir = process.env.TEST_TLS_DIR;
  if (!dir) throw new Error('TEST_TLS_DIR is unset: run the tests with vitest.config.ts');
  return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
}

/** Answers planned per token (first in, first out); a token with no plan left gets success. */
class ResponsePlan {
  private readonly planned = new Map<string, FakeResponse[]>();
  respond(token: string, ...responses: FakeResponse[]): void {
    this.planned.set(token, [...(this.planned.get(token) ?? []), ...responses]);
  }
  next(token: string): FakeResponse | undefined {
    return this.planned.get(token)?.shift();
  }
}

async function readBody(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

async function listen(server: Server | Http2SecureServer): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `https://localhost:${(server.address() as AddressInfo).port}`;
}

function closeServer(server: Server | Http2SecureServer): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

// ---------------------------------------------------------------------------------------------
// FCM HTTP v1

export interface FcmSend {
  token: string;
  notification: { title: string; body: string };
  data: Record<string, string>;
  accessToken: string;
}

export const fcmErrors = {
  unregistered: (): FakeResponse => ({
    status: 404,
    body: {
      error: {
        code: 404,
        message: 'Requested entity was not found.',
        status: 'NOT_FOUND',
        details: [
          { '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode: 'UNREGISTERED' },
        ],
      },
    },
  }),
  unavailable: (retryAfterSeconds?: number): FakeResponse => ({
    status: 503,
    body: {
      error: {
        code: 503,
        message: 'The service is currently unavailable.',
        status: 'UNAVAILABLE',
        details: [
          { '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode: 'UNAVAILABLE' },
        ],
      },
    },
    ...(retryAfterSeconds !== undefined ? { headers: { 'retry-after': String(retryAfterSeconds) } } : {}),
  }),
  quotaExceeded: (): FakeResponse => ({
    status: 429,
    body: {
      error: {
        code: 429,
        status: 'RESOURCE_EXHAUSTED',
        details: [
          { '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode: 'QUOTA_EXCEEDED' },
        ],
      },
    },
  }),
};

/**
 * Google's OAuth token endpoint (JWT-bearer grant, the assertion checked against the service
 * account's key) and FCM's `POST /v1/projects/{project}/messages:send` (the access token checked).
 * `credentialsFile` is a service-account key file for it.
 */
export async function startFakeFcm() {
  const projectId = 'fake-project';
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const dir = mkdtempSync(join(tmpdir(), 'fake-fcm-'));
  const plan = new ResponsePlan();
  const sends: FcmSend[] = [];
  const issued = new Set<string>();
  let tokenRequests = 0;
  const server = createServer(tls(), (req, res) => {
    void (async () => {
      const body = await readBody(req);
      const reply = (r: FakeResponse) => {
        res.writeHead(r.status, { 'content-type': 'application/json', ...r.headers });
        res.end(JSON.stringify(r.body ?? {}));
      };
      if (req.method === 'POST' && req.url === '/token') {
        tokenRequests++;
        const form = new URLSearchParams(body.toString());
        const grantOk = form.get('grant_type') === 'urn:ietf:params:oauth:grant-type:jwt-bearer';
        const claims = await verifyAssertion(form.get('assertion') ?? '', publicKey).catch(() => undefined);
        if (!grantOk || !claims) return reply({ status: 400, body: { error: 'invalid_grant' } });
        const accessToken = `ya29.fake-${randomUUID()}`;
        issued.add(accessToken);
        return reply({
          status: 200,
          body: { access_token: accessToken, expires_in: 3600, token_type: 'Bearer' },
        });
      }
      if (req.method === 'POST' && req.url === `/v1/projects/${projectId}/messages:send`) {
        const accessToken = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
        if (!issued.has(accessToken))
          return reply({ status: 401, body: { error: { code: 401, status: 'UNAUTHENTICATED' } } });
        const { message } = JSON.parse(body.toString()) as { message: Omit<FcmSend, 'accessToken'> };
        sends.push({ ...message, accessToken });
        return reply(
          plan.next(message.token) ?? {
            status: 200,
            body: { name: `projects/${projectId}/messages/${randomUUID()}` },
          },
        );
      }
      reply({ status: 404, body: { error: { code: 404, status: 'NOT_FOUND' } } });
    })();
  });
  const baseUrl = await listen(server);
  const credentialsFile = join(dir, 'service-account.json');
  writeFileSync(
    credentialsFile,
    JSON.stringify({
      type: 'service_account',
      project_id: projectId,
      private_key_id: 'fake-key-id',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }),
      client_email: `push@${projectId}.iam.gserviceaccount.com`,
      token_uri: `${baseUrl}/token`,
    }),
  );
  return {
    baseUrl,
    tokenUrl: `${baseUrl}/token`,
    credentialsFile,
    sends,
    respond: plan.respond.bind(plan),
    tokenRequests: () => tokenRequests,
    async close() {
      await closeServer(server);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function verifyAssertion(assertion: string, key: KeyObject) {
  const { payload } = await jwtVerify(assertion, key, { algorithms: ['RS256'] });
  if (payload.scope !== 'https://www.googleapis.com/auth/firebase.messaging') throw new Error('scope');
  return payload;
}

// ---------------------------------------------------------------------------------------------
// APNs

export interface ApnsSend {
  token: string;
  headers: Record<string, string | string[] | undefined>;
  payload: { aps: { alert: { title: string; body: string } } } & Record<string, unknown>;
}

/**
 * APNs' provider API over HTTP/2 with TLS: `POST /3/device/<token>` with `authorization: bearer
 * <ES256 JWT>` (checked against the .p8 key it wrote, `kid` and `iss`), `apns-topic` and
 * `apns-push-type`. Errors are `{ reason }` as Apple sends them.
 */
export async function startFakeApns(options: { keyId?: string; teamId?: string; topic?: string } = {}) {
  const keyId = options.keyId ?? 'ABC123DEFG';
  const teamId = options.teamId ?? 'DEF123GHIJ';
  const topic = options.topic ?? 'com.example.esim';
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const dir = mkdtempSync(join(tmpdir(), 'fake-apns-'));
  const keyFile = join(dir, `AuthKey_${keyId}.p8`);
  writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }));
  const plan = new ResponsePlan();
  const sends: ApnsSend[] = [];
  const server = createSecureServer(tls());
  server.on('stream', (stream, headers) => {
    void (async () => {
      const body = await readBody(stream);
      const reply = (r: FakeResponse) => {
        stream.respond({ ':status': r.status, 'apns-id': randomUUID(), ...r.headers });
        stream.end(r.body === undefined ? undefined : JSON.stringify(r.body));
      };
      const path = String(headers[':path']);
      const match = /^\/3\/device\/([^/]+)$/.exec(path);
      if (headers[':method'] !== 'POST' || !match) return reply({ status: 404, body: { reason: 'BadPath' } });
      const jwt = /^bearer (.+)$/.exec(String(headers.authorization ?? ''))?.[1] ?? '';
      const verified = await jwtVerify(jwt, publicKey, { algorithms: ['ES256'], issuer: teamId }).catch(
        () => undefined,
      );
      if (!verified || verified.protectedHeader.kid !== keyId) {
        return reply({ status: 403, body: { reason: 'InvalidProviderToken' } });
      }
      if (headers['apns-topic'] !== topic) return reply({ status: 400, body: { reason: 'TopicDisallowed' } });
      const token = decodeURIComponent(match[1]!);
      sends.push({
        token,
        headers: { ...headers },
        payload: JSON.parse(body.toString()) as ApnsSend['payload'],
      });
      reply(plan.next(token) ?? { status: 200 });
    })();
  });
  const baseUrl = await listen(server);
  return {
    baseUrl,
    keyFile,
    keyId,
    teamId,
    topic,
    sends,
    respond: plan.respond.bind(plan),
    async close() {
      await closeServer(server);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A random APNs device token (32 bytes, hex). */
export const apnsToken = () => randomBytes(32).toString('hex');

// ---------------------------------------------------------------------------------------------
// Web Push

export interface WebPushDelivery {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/**
 * A push service endpoint (RFC 8030): `POST /push/<id>` with a VAPID `authorization` and an
 * aes128gcm-encrypted body, answered 201 (or what a test planned for that endpoint: 404, 410, 429…).
 */
export async function startFakeWebPush() {
  const plan = new ResponsePlan();
  const deliveries: WebPushDelivery[] = [];
  const server = createServer(tls(), (req, res) => {
    void (async () => {
      const body = await readBody(req);
      const endpoint = `${baseUrl}${req.url}`;
      deliveries.push({ path: req.url ?? '', headers: { ...req.headers }, body });
      const r = plan.next(endpoint) ?? { status: 201 };
      res.writeHead(r.status, r.headers);
      res.end(r.body === undefined ? undefined : JSON.stringify(r.body));
    })();
  });
  const baseUrl = await listen(server);
  return {
    baseUrl,
    deliveries,
    respond: plan.respond.bind(plan),
    /** A browser's subscription to this fake: a fresh endpoint and real P-256 / auth keys. */
    subscription() {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      return {
        endpoint: `${baseUrl}/push/${randomUUID()}`,
        keys: {
          p256dh: ecdh.getPublicKey().toString('base64url'),
          auth: randomBytes(16).toString('base64url'),
        },
      };
    },
    close: () => closeServer(server),
  };
}
