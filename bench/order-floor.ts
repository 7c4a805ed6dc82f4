/**
 * The raw-SQL floor of an order (issue 12): a bare node:http server doing only the essential
 * writes of a Partner `POST /orders`, with named prepared statements on PostgreSQL:
 *   key lookup (sha256 of x-api-key); one transaction: read the price, conditional balance update,
 *   insert the order, its ledger row and its eSIM; answer 201 with a small JSON body.
 * Child process of bench/run.ts; reports its port over IPC.
 *
 * argv[2]: `postgres://…` (the bench database, seeded by the service), or `pglite:<dir>` (an
 * on-disk PGlite in <dir>, like the service's default) or `pglite` (in memory), migrated and
 * seeded here: it then also reports the keys and plan it made. On PGlite it opens the database
 * with the service's own `openPglite`, so floor and service run on the same PGlite, whose `query`
 * parses and plans every statement for both.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';

interface Runner {
  query(name: string, text: string, values: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
  transaction<T>(fn: (q: Runner['query']) => Promise<T>): Promise<T>;
}

const target = process.argv[2] ?? 'pglite';

async function postgresRunner(url: string): Promise<Runner> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const query: Runner['query'] = (name, text, values) => pool.query({ name, text, values });
  return {
    query,
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const result = await fn((name, text, values) => client.query({ name, text, values }));
        await client.query('commit');
        return result;
      } catch (err) {
        await client.query('rollback');
        throw err;
      } finally {
        client.release();
      }
    },
  };
}

async function pgliteRunner(
  dir: string | undefined,
): Promise<{ runner: Runner; seeded: { keys: string[]; planId: string } }> {
  // The service's own opening (same memory settings), then its migrations.
  const { openPglite } = await import('../src/db/pglite.js');
  const database = openPglite(dir);
  await database.migrate();
  const client = database.client;
  const query: Runner['query'] = async (_name, text, values) => await client.query(text, values);
  const runner: Runner = {
    query,
    transaction: (fn) =>
      client.transaction((tx) => fn(async (_n, text, values) => await tx.query(text, values))),
  };
  // One plan and funded accounts with live keys, as the service's seed would make them.
  const now = new Date().toISOString();
  const planId = 'plan_floor';
  await client.query(
    `insert into plans (id, provider, provider_package_code, title, scope, destination_code, coverage, data_amount_mb, duration_days, wholesale_cents, price_cents, created_at, updated_at)
     values ($1, 'sandbox', 'FLOOR-1', 'Floor', 'country', 'TR', '["TR"]', 1024, 7, 100, 199, $2, $2)`,
    [planId, now],
  );
  const keys: string[] = [];
  for (let i = 0; i < Number(process.env.BENCH_PARTNERS ?? 64); i++) {
    const id = `acc_floor_${i}`;
    const key = `svc_live_sk_${randomBytes(24).toString('hex')}`;
    await client.query(
      `insert into accounts (id, email, api_key_hash, wallet_balance_cents, created_at, updated_at)
       values ($1, $2, $3, 1000000000, $4, $4)`,
      [id, `${id}@example.com`, sha256(key), now],
    );
    keys.push(key);
  }
  return { runner, seeded: { keys, planId } };
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const id = (prefix: string) => `${prefix}_${randomBytes(15).toString('base64url')}`;

async function placeOrder(db: Runner, key: string, planId: string, quantity: number) {
  const { rows: found } = await db.query(
    'floor_key',
    "select id from accounts where api_key_hash = $1 and status = 'ACTIVE'",
    [sha256(key)],
  );
  const accountId = found[0]?.id as string | undefined;
  if (!accountId) return { status: 401, body: { error: { code: 'UNAUTHORIZED' } } };
  return db.transaction(async (q) => {
    const { rows: planRows } = await q(
      'floor_plan',
      'select coalesce(price_override_cents, price_cents) as price from plans where id = $1 and active and enabled_by_operator',
      [planId],
    );
    if (!planRows[0]) return { status: 404, body: { error: { code: 'PLAN_NOT_FOUND' } } };
    const amount = Number(planRows[0].price) * quantity;
    const now = new Date().toISOString();
    const { rows: charged } = await q(
      'floor_charge',
      'update accounts set wallet_balance_cents = wallet_balance_cents - $2, updated_at = $3 where id = $1 and wallet_balance_cents >= $2 returning wallet_balance_cents as balance',
      [accountId, amount, now],
    );
    if (!charged[0]) throw Object.assign(new Error('insufficient'), { status: 402 });
    const orderId = id('ord');
    const orderNumber = `SVC-API-FLOOR-${randomBytes(6).toString('hex')}`;
    await q(
      'floor_order',
      `insert into orders (id, order_number, account_id, channel, plan_id, quantity, amount_cents, payment_method, status, created_at, updated_at, completed_at)
       values ($1, $2, $3, 'partner', $4, $5, $6, 'wallet', 'COMPLETED', $7, $7, $7)`,
      [orderId, orderNumber, accountId, planId, quantity, amount, now],
    );
    await q(
      'floor_ledger',
      `insert into wallet_transactions (id, account_id, kind, amount_cents, balance_after_cents, description, order_id, reference, created_at)
       values ($1, $2, 'purchase', $3, $4, $5, $6, $7, $8)`,
      [
        id('wtx'),
        accountId,
        -amount,
        charged[0].balance,
        `Order ${orderNumber}`,
        orderId,
        `order:${orderId}:purchase`,
        now,
      ],
    );
    const matchingId = randomBytes(16).toString('hex').toUpperCase();
    const iccid = `8990${randomBytes(8).readBigUInt64BE().toString().padStart(16, '0').slice(0, 16)}`;
    const esimId = id('esim');
    await q(
      'floor_esim',
      `insert into esims (id, order_id, account_id, plan_id, iccid, provider_ref, smdp_address, matching_id, activation_code, qr_token, status, total_volume_mb, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, 'rsp.floor.example.com', $7, $8, $9, 'PENDING', 1024, $10, $10)`,
      [
        esimId,
        orderId,
        accountId,
        planId,
        iccid,
        id('ref'),
        matchingId,
        `LPA:1$rsp.floor.example.com$${matchingId}`,
        id('qr'),
        now,
      ],
    );
    return {
      status: 201,
      body: {
        id: orderId,
        orderNumber,
        status: 'COMPLETED',
        amountUsd: amount / 100,
        esims: [{ id: esimId, iccid }],
      },
    };
  });
}

const { runner, seeded } =
  target === 'pglite' || target.startsWith('pglite:')
    ? await pgliteRunner(target.slice('pglite:'.length) || undefined)
    : { runner: await postgresRunner(target), seeded: undefined };

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (c: Buffer) => chunks.push(c));
  request.on('end', () => {
    const send = (status: number, body: unknown) => {
      const bytes = JSON.stringify(body);
      response.writeHead(status, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(bytes),
      });
      response.end(bytes);
    };
    let input: { planId?: string; quantity?: number };
    try {
      input = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof input;
    } catch {
      return send(400, { error: { code: 'VALIDATION_ERROR' } });
    }
    placeOrder(runner, String(request.headers['x-api-key'] ?? ''), String(input.planId), input.quantity ?? 1)
      .then((r) => send(r.status, r.body))
      .catch((err: { status?: number; message?: string }) => send(err.status ?? 500, { error: err.message }));
  });
});
server.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.address() as AddressInfo).port, ...seeded });
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
