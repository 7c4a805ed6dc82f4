import { describe, expect, it } from 'vitest';
import {
  createEsimAccessWebhook,
  parseEsimAccessWebhook,
} from '../../src/providers/esim/esimaccess/webhooks.js';
import { EsimWebhookError, type EsimWebhookRequest } from '../../src/providers/esim/types.js';

const MB = 1_048_576;
const TOKEN = 'esimaccess-hook-token-0123456789';

function refusal(run: () => unknown): EsimWebhookError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(EsimWebhookError);
    return error as EsimWebhookError;
  }
  throw new Error('expected a refusal');
}

describe('eSIM Access webhook adapter', () => {
  it('reads each notifyType into a neutral notice, in our units and statuses', () => {
    const esim = { esimTranNo: 'T1', iccid: '8988' };
    const notice = (notifyType: string, content: Record<string, unknown>) =>
      parseEsimAccessWebhook({ notifyType, notifyId: 'n1', content })[0]!.notice;
    expect(notice('CHECK_HEALTH', { orderStatus: 'Test' })).toEqual({ kind: 'health_check' });
    expect(notice('ORDER_STATUS', { transactionId: 'ord_1', orderStatus: 'GOT_RESOURCE' })).toEqual({
      kind: 'order_ready',
      orderId: 'ord_1',
    });
    expect(notice('ORDER_STATUS', { orderStatus: 'GOT_RESOURCE' })).toEqual({ kind: 'other' });
    expect(notice('ESIM_STATUS', { ...esim, esimStatus: 'USED_UP' })).toEqual({
      kind: 'status',
      esim: { providerRef: 'T1', iccid: '8988' },
      status: 'DEPLETED',
    });
    expect(notice('DATA_USAGE', { ...esim, orderUsage: 300 * MB, totalVolume: String(1024 * MB) })).toEqual({
      kind: 'usage',
      esim: { providerRef: 'T1', iccid: '8988' },
      usage: { usedMb: 300, totalMb: 1024 },
    });
    expect(notice('VALIDITY_USAGE', { iccid: '8988', expiredTime: '2027-01-11T08:10:19+0000' })).toEqual({
      kind: 'validity',
      esim: { providerRef: undefined, iccid: '8988' },
      expiresAt: new Date('2027-01-11T08:10:19Z'),
    });
    // Unreadable fields are left out: the eSIM is still looked up, nothing changes.
    expect(notice('DATA_USAGE', { ...esim, orderUsage: -1, totalVolume: 2 })).not.toHaveProperty('usage');
    expect(notice('VALIDITY_USAGE', { ...esim, expiredTime: 'soon' })).not.toHaveProperty('expiresAt');
    expect(notice('SMDP_EVENT', { ...esim, smdpStatus: 'INSTALLATION' })).toEqual({
      kind: 'status',
      esim: { providerRef: 'T1', iccid: '8988' },
      installState: 'INSTALLED',
    });
    expect(notice('ESIM_STATUS', { ...esim, esimStatus: 'IN_USE', smdpStatus: 'ENABLED' })).toMatchObject({
      status: 'ACTIVE',
      installState: 'ENABLED',
    });
    expect(
      notice('DATA_USAGE', {
        ...esim,
        orderUsage: 1,
        totalVolume: 2,
        lastUpdateTime: '2025-03-19T18:00:00+0000',
      }),
    ).toMatchObject({ measuredAt: new Date('2025-03-19T18:00:00Z') });
    expect(notice('SOMETHING_NEW', esim)).toEqual({ kind: 'other' });
  });

  it('keeps the id, type and body; no notifyId leaves the identity to the body', () => {
    const body = { notifyType: 'CHECK_HEALTH', content: {} };
    expect(parseEsimAccessWebhook(body)).toEqual([
      { type: 'CHECK_HEALTH', notice: { kind: 'health_check' }, payload: body },
    ]);
    expect(refusal(() => parseEsimAccessWebhook({ content: {} }))).toMatchObject({
      kind: 'invalid',
      options: { field: 'notifyType' },
    });
    expect(refusal(() => parseEsimAccessWebhook([1]))).toMatchObject({ kind: 'invalid' });
  });

  it('verifies the path token and, when listed, the sender address', () => {
    const request = (token: string, peerAddress = '203.0.113.9'): EsimWebhookRequest => ({
      token,
      peerAddress,
      headers: {},
      rawBody: Buffer.alloc(0),
    });
    const open = createEsimAccessWebhook({ token: TOKEN, allowedIps: [] });
    expect(open.aliases).toEqual(['esimaccess']);
    expect(() => open.verify(request(TOKEN))).not.toThrow();
    expect(refusal(() => open.verify(request('wrong-token-0000000000')))).toMatchObject({
      kind: 'unknown_url',
    });
    const off = createEsimAccessWebhook({ token: undefined, allowedIps: [] });
    expect(refusal(() => off.verify(request('')))).toMatchObject({ kind: 'unknown_url' });
    const listed = createEsimAccessWebhook({ token: TOKEN, allowedIps: ['3.1.131.226'] });
    expect(refusal(() => listed.verify(request(TOKEN)))).toMatchObject({ kind: 'forbidden' });
    expect(() => listed.verify(request(TOKEN, '::ffff:3.1.131.226'))).not.toThrow();
  });
});
