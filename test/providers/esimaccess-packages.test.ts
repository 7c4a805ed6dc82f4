import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createEsimAccessClient, esimAccessSignature } from '../../src/providers/esim/esimaccess/client.js';
import { createEsimAccessPackages } from '../../src/providers/esim/esimaccess/packages.js';
import { EsimProviderError } from '../../src/providers/esim/types.js';

const ACCESS_CODE = 'test-access-code';
const SECRET = 'test-secret-key';
const GB = 1024 * 1024 * 1024;

/** Live-capture shaped entries (providers-and-peers.md §2.4). */
const BASE = [
  {
    packageCode: 'CKH002',
    slug: 'ES_3_30',
    name: 'Spain 3GB 30Days',
    price: 18000,
    currencyCode: 'USD',
    volume: 3 * GB,
    duration: 30,
    durationUnit: 'DAY',
    location: 'ES',
    locationCode: 'ES',
    description: 'Spain 3GB 30Days',
    retailPrice: 36000,
    activeType: 2,
    supportTopUpType: 2,
  },
  {
    packageCode: 'NA-3',
    slug: 'NA-3_1_7',
    name: 'North America 1GB 7Days',
    price: 25000,
    currencyCode: 'USD',
    volume: GB,
    duration: 7,
    durationUnit: 'DAY',
    location: 'MX,US,CA',
    locationCode: '!RG',
    description: 'North America 1GB 7Days',
    activeType: 1,
    supportTopUpType: 1,
  },
  {
    packageCode: 'GL-120',
    slug: 'GL-120_3_30',
    name: 'Global 3GB 30Days',
    price: 99000,
    currencyCode: 'USD',
    volume: 3 * GB,
    duration: 1,
    durationUnit: 'MONTH',
    location: 'DE,FR,US,JP,TR',
    locationCode: '!GL',
    description: null,
    supportTopUpType: 3,
  },
];
const TOPUP = [
  {
    packageCode: 'TOPUP_CKH002',
    slug: 'ES_1_7',
    name: 'Spain 1GB Top-up',
    price: 9000,
    volume: GB,
    duration: 7,
    durationUnit: 'DAY',
    location: 'ES',
    locationCode: 'ES',
    description: 'Spain top-up',
    activeType: 2,
    supportTopUpType: 2,
  },
];

let server: Server;
let baseUrl: string;
const seen: Array<{ path: string; body: unknown }> = [];

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function envelope(obj: unknown, errorCode = '0', errorMsg: string | null = null) {
  return JSON.stringify({ success: errorCode === '0', errorCode, errorMsg, obj });
}

beforeAll(async () => {
  // A failure inside the fake surfaces as an unhandled rejection, which fails the run.
  server = createServer(
    (req, res) =>
      void (async () => {
        const raw = await readBody(req);
        res.setHeader('content-type', 'application/json');
        const h = (name: string) => req.headers[name.toLowerCase()] as string | undefined;
        const [accessCode, timestamp, requestId, signature] = [
          'RT-AccessCode',
          'RT-Timestamp',
          'RT-RequestID',
          'RT-Signature',
        ].map(h);
        if (!accessCode || !timestamp || !requestId || !signature)
          return res.end(envelope(null, '000101', 'mandatory header null'));
        if (accessCode !== ACCESS_CODE) return res.end(envelope(null, '101003', 'signature mismatch'));
        if (Math.abs(Date.now() - Number(timestamp)) > 60_000)
          return res.end(envelope(null, '101001', 'timestamp expired'));
        const expected = createHmac('sha256', SECRET)
          .update(timestamp + requestId + accessCode + raw)
          .digest('hex');
        if (signature.toLowerCase() !== expected)
          return res.end(envelope(null, '101003', 'signature mismatch'));
        if (req.method !== 'POST' || req.url !== '/api/v1/open/package/list')
          return res.end(envelope(null, '000103', 'not supported'));
        const body = JSON.parse(raw) as { type?: string };
        seen.push({ path: req.url, body });
        res.end(envelope({ packageList: body.type === 'TOPUP' ? TOPUP : BASE }));
      })(),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('eSIM Access signature', () => {
  test('matches the documented test vector', () => {
    expect(
      esimAccessSignature(
        '1111',
        '1628670421',
        '4ce9d9cdac9e4e17b3a2c66c358c1ce2',
        '11111',
        '{"imsi":"326543826"}',
      ),
    ).toBe('7eb765e27df5373dea2dbc8c41a7d9557743e46c8054750f3d851b3fd01d0835');
  });
});

describe('eSIM Access package/list', () => {
  test('lists base and top-up packages, converting bytes, price × 10 000, locations, activeType and supportTopUpType', async () => {
    const packages = await createEsimAccessPackages(
      createEsimAccessClient({ accessCode: ACCESS_CODE, secretKey: SECRET, baseUrl }),
    ).listPackages();
    expect(seen.map((s) => s.body)).toEqual([
      { locationCode: '', type: 'BASE' },
      { locationCode: '', type: 'TOPUP' },
    ]);
    expect(packages).toEqual([
      {
        packageCode: 'CKH002',
        name: 'Spain 3GB 30Days',
        description: 'Spain 3GB 30Days',
        coverage: ['ES'],
        scope: 'country',
        dataAmountMb: 3072,
        durationDays: 30,
        isTopUp: false,
        wholesaleCents: 180,
        activationPolicy: 'first_connection',
        topUpSupported: true,
      },
      {
        packageCode: 'NA-3',
        name: 'North America 1GB 7Days',
        description: 'North America 1GB 7Days',
        coverage: ['MX', 'US', 'CA'],
        scope: 'region',
        regionCode: 'NA',
        dataAmountMb: 1024,
        durationDays: 7,
        isTopUp: false,
        wholesaleCents: 250,
        activationPolicy: 'first_install',
        topUpSupported: false,
      },
      {
        packageCode: 'GL-120',
        name: 'Global 3GB 30Days',
        description: 'Global 3GB 30Days',
        coverage: ['DE', 'FR', 'US', 'JP', 'TR'],
        scope: 'global',
        regionCode: 'GLOBAL',
        dataAmountMb: 3072,
        durationDays: 30,
        isTopUp: false,
        wholesaleCents: 990,
        activationPolicy: 'first_connection',
        topUpSupported: true,
      },
      {
        packageCode: 'TOPUP_CKH002',
        name: 'Spain 1GB Top-up',
        description: 'Spain top-up',
        coverage: ['ES'],
        scope: 'country',
        dataAmountMb: 1024,
        durationDays: 7,
        isTopUp: true,
        wholesaleCents: 90,
        activationPolicy: 'first_connection',
        topUpSupported: false,
      },
    ]);
  });

  test('a wrong secret is rejected by the provider (101003) and the adapter throws', async () => {
    const provider = createEsimAccessPackages(
      createEsimAccessClient({ accessCode: ACCESS_CODE, secretKey: 'wrong', baseUrl }),
    );
    const error = await provider.listPackages().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EsimProviderError);
    expect((error as EsimProviderError).providerCode).toBe('101003');
  });

  test('an unreachable provider is a retryable error', async () => {
    const provider = createEsimAccessPackages(
      createEsimAccessClient({ accessCode: ACCESS_CODE, secretKey: SECRET, baseUrl: 'http://127.0.0.1:1' }),
    );
    const error = (await provider.listPackages().catch((e: unknown) => e)) as EsimProviderError;
    expect([error.kind, error.retryable]).toEqual(['unavailable', true]);
  });
});
