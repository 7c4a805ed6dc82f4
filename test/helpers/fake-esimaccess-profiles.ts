import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { esimAccessSignature } from '../../src/providers/esim/esimaccess/client.js';

/**
 * A local eSIM Access server for the profile lifecycle, following the documented protocol
 * (shared/research/providers-and-peers.md §2): HMAC headers checked (case-insensitive hex, stale
 * timestamps refused), string error codes with `success:false`, `transactionId` idempotent,
 * `200010` for the first N queries of an order, balance ×10 000 with `200007` when short, `310241`
 * for unknown packages, cancel only while GOT_RESOURCE + RELEASED.
 */
export interface FakePackage {
  /** ×10 000 USD. */
  price: number;
  /** Bytes. */
  volume: number;
  duration: number;
}

interface FakeProfile {
  esimTranNo: string;
  orderNo: string;
  transactionId: string;
  iccid: string;
  ac: string;
  esimStatus: string;
  smdpStatus: string;
  totalVolume: number;
  orderUsage: number;
  activateTime: string | null;
  expiredTime: string;
  price: number;
  topUps: string[];
}

interface FakeOrder {
  orderNo: string;
  transactionId: string;
  pendingPolls: number;
  profiles: FakeProfile[];
}

export const GB = 1024 * 1024 * 1024;
const ts = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, '+0000');

export async function startFakeEsimAccess(options: {
  accessCode: string;
  secretKey: string;
  balance: number;
  packages: Record<string, FakePackage>;
  allocationPolls?: number;
}) {
  const state = {
    balance: options.balance,
    allocationPolls: options.allocationPolls ?? 0,
    orders: new Map<string, FakeOrder>(),
    byTransaction: new Map<string, FakeOrder>(),
    profiles: new Map<string, FakeProfile>(),
    requests: [] as Array<{ path: string; body: Record<string, unknown> }>,
    seq: 0,
  };

  const ok = (obj: unknown) => ({ success: true, errorCode: '0', errorMsg: null, obj });
  const fail = (code: string, msg: string) => ({ success: false, errorCode: code, errorMsg: msg, obj: null });
  const next = () => String(26033119290000 + ++state.seq);

  function order(body: Record<string, unknown>) {
    const txId = body.transactionId;
    if (typeof txId !== 'string' || !txId || txId.length > 50) return fail('000105', 'transactionId');
    const again = state.byTransaction.get(txId);
    if (again) return ok({ orderNo: again.orderNo, transactionId: txId });
    const [item] =
      (body.packageInfoList as Array<{ packageCode: string; count: number; price?: number }>) ?? [];
    const pkg = item && options.packages[item.packageCode];
    if (!item || !pkg) return fail('310241', 'packageCode does not exist');
    if (item.price !== undefined && item.price !== pkg.price) return fail('200005', 'package price error');
    const cost = pkg.price * item.count;
    if (state.balance < cost) return fail('200007', 'insufficient balance');
    state.balance -= cost;
    const o: FakeOrder = {
      orderNo: `B${next()}`,
      transactionId: txId,
      pendingPolls: state.allocationPolls,
      profiles: [],
    };
    for (let i = 0; i < item.count; i++) {
      const tran = next();
      const profile: FakeProfile = {
        esimTranNo: tran,
        orderNo: o.orderNo,
        transactionId: txId,
        iccid: `89103000000${tran.slice(-8)}`,
        ac: `LPA:1$rsp-eu.simlessly.com$${tran}ABCDEF`,
        esimStatus: 'GOT_RESOURCE',
        smdpStatus: 'RELEASED',
        totalVolume: pkg.volume,
        orderUsage: 0,
        activateTime: null,
        expiredTime: ts(new Date(Date.now() + 180 * 86_400_000)),
        price: pkg.price,
        topUps: [],
      };
      o.profiles.push(profile);
      state.profiles.set(tran, profile);
    }
    state.orders.set(o.orderNo, o);
    state.byTransaction.set(txId, o);
    return ok({ orderNo: o.orderNo, transactionId: txId });
  }

  function query(body: Record<string, unknown>) {
    const pager = body.pager as { pageNum?: number; pageSize?: number } | undefined;
    if (!pager || !pager.pageSize || pager.pageSize < 5 || pager.pageSize > 500)
      return fail('000107', 'pager');
    if (typeof body.orderNo === 'string') {
      const o = state.orders.get(body.orderNo);
      if (!o) return fail('310272', 'orderNo does not exist');
      if (o.pendingPolls > 0) {
        o.pendingPolls--;
        return fail('200010', 'profile is being allocated');
      }
      return ok({ esimList: o.profiles, pager: { ...pager, total: o.profiles.length } });
    }
    const p = state.profiles.get(String(body.esimTranNo));
    return ok({ esimList: p ? [p] : [], pager: { ...pager, total: p ? 1 : 0 } });
  }

  function topup(body: Record<string, unknown>) {
    const p = state.profiles.get(String(body.esimTranNo));
    if (!p) return fail('310403', 'not found');
    const txId = typeof body.transactionId === 'string' ? body.transactionId : '';
    if (p.topUps.includes(txId))
      return ok({ transactionId: txId, iccid: p.iccid, totalVolume: p.totalVolume });
    const pkg = options.packages[String(body.packageCode)];
    if (!pkg || !String(body.packageCode).startsWith('TOPUP_'))
      return fail('310241', 'packageCode does not exist');
    if (p.esimStatus.endsWith('EXPIRED') || p.esimStatus === 'CANCEL')
      return fail('200009', 'abnormal status');
    if (state.balance < pkg.price) return fail('200007', 'insufficient balance');
    state.balance -= pkg.price;
    p.totalVolume += pkg.volume;
    p.topUps.push(txId);
    if (p.esimStatus === 'USED_UP') p.esimStatus = 'IN_USE';
    return ok({
      transactionId: txId,
      iccid: p.iccid,
      totalVolume: p.totalVolume,
      expiredTime: p.expiredTime,
    });
  }

  function cancel(body: Record<string, unknown>) {
    const p = state.profiles.get(String(body.esimTranNo));
    if (!p) return fail('310403', 'not found');
    if (p.esimStatus !== 'GOT_RESOURCE' || p.smdpStatus !== 'RELEASED') return fail('200002', 'not allowed');
    p.esimStatus = 'CANCEL';
    state.balance += p.price;
    return ok({});
  }

  function usage(body: Record<string, unknown>) {
    const refs = (body.esimTranNoList as string[]) ?? [];
    if (refs.length > 10) return fail('000107', 'at most 10');
    return ok(
      refs
        .map((r) => state.profiles.get(r))
        .filter((p): p is FakeProfile => !!p)
        .map((p) => ({
          esimTranNo: p.esimTranNo,
          dataUsage: p.orderUsage,
          totalData: p.totalVolume,
          lastUpdateTime: ts(new Date()),
        })),
    );
  }

  const routes: Record<string, (body: Record<string, unknown>) => unknown> = {
    '/api/v1/open/esim/order': order,
    '/api/v1/open/esim/query': query,
    '/api/v1/open/esim/topup': topup,
    '/api/v1/open/esim/cancel': cancel,
    '/api/v1/open/esim/usage/query': usage,
  };

  function authError(req: IncomingMessage, raw: string) {
    const h = (n: string) => String(req.headers[n] ?? '');
    if (!h('rt-accesscode') || !h('rt-timestamp') || !h('rt-requestid') || !h('rt-signature'))
      return fail('000101', 'mandatory header null');
    if (h('rt-accesscode') !== options.accessCode) return fail('101003', 'signature mismatch');
    if (Math.abs(Date.now() - Number(h('rt-timestamp'))) > 5 * 60_000)
      return fail('101001', 'timestamp expired');
    const expected = esimAccessSignature(
      options.secretKey,
      h('rt-timestamp'),
      h('rt-requestid'),
      options.accessCode,
      raw,
    );
    return expected === h('rt-signature').toLowerCase() ? null : fail('101003', 'signature mismatch');
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown>;
      try {
        body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      } catch {
        body = {};
      }
      state.requests.push({ path: req.url ?? '', body });
      const route = routes[req.url ?? ''];
      const result = authError(req, raw) ?? (route ? route(body) : fail('000103', 'method not supported'));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(result));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
