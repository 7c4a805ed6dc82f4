import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { ADMIN_TOKEN } from './config.js';

/** A push as `GET /api/admin/v1/push` lists it. */
export interface RecordedPush {
  id: string;
  accountId: string;
  deviceId: string;
  platform: 'IOS' | 'ANDROID' | 'WEB';
  title: string;
  body: string;
  data: Record<string, string>;
  result: 'recorded' | 'pending' | 'sent' | 'failed' | 'gone' | 'skipped';
  error: string | null;
  attempts: number;
  createdAt: string;
  sentAt: string | null;
}

/**
 * The pushes recorded for `accountId` (one per device), newest first, as the operator's push
 * outbox (`GET /api/admin/v1/push?accountId=`) lists them. With the default PUSH_TRANSPORT=outbox
 * a push is there as soon as the transaction that sent it commits (`result: 'recorded'`).
 */
export async function pushesOf(app: FastifyInstance, accountId: string): Promise<RecordedPush[]> {
  const res = await app.inject({
    url: `/api/admin/v1/push?accountId=${encodeURIComponent(accountId)}`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ pushes: RecordedPush[] }>().pushes;
}
