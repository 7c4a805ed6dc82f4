import { mkdirSync } from 'node:fs';
import {
  parse,
  PGlite,
  protocol,
  type QueryOptions,
  type Results,
  type Transaction,
} from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { MIGRATIONS_FOLDER, type Database, type Db } from './database.js';
import { localNotifications } from './notifications.js';

/**
 * Memory settings of the embedded server. PGlite keeps PostgreSQL's defaults (shared_buffers
 * 128 MB, inside the WASM heap): with them the process sat at 500–560 MB. The service's whole
 * database is a few MB per thousand orders, so small buffers cost no reads; the WASM heap grows
 * on demand (up to 2 GB) if a query needs it. Its initial size cannot go below the 128 MB the
 * module declares (only the pages touched count as resident).
 * Durability is unchanged (no relaxedDurability): a commit is in the data directory's files when
 * its query returns. PGlite never flushes them (its fdatasync is a no-op): see docs/operations.md.
 */
export const PGLITE_MEMORY_SETTINGS = [
  '-c',
  'shared_buffers=16MB',
  '-c',
  'work_mem=2MB',
  '-c',
  'maintenance_work_mem=16MB',
  '-c',
  'temp_buffers=2MB',
];

/** Embedded PGlite: files in `dataDir`, or in memory when `dataDir` is undefined. */
export function openPglite(dataDir: string | undefined): Database & { client: PGlite } {
  const options = {
    startParams: [...PGlite.defaultStartParams, ...PGLITE_MEMORY_SETTINGS],
  };
  if (dataDir !== undefined) mkdirSync(dataDir, { recursive: true });
  const client = dataDir === undefined ? new PGlite(options) : new PGlite(dataDir, options);
  yieldingToEventLoop(forDrizzle(client));
  return wrapPglite(client);
}

/** A PGlite for drizzle, with named statements: the service's PGlite and the test databases. */
export function forDrizzle(client: PGlite): PGlite {
  return withNamedStatements(client);
}

/**
 * How long PGlite work may run before the event loop gets a turn. PGlite executes each query
 * synchronously in WebAssembly and resolves it as a promise, so a chain of awaited queries (every
 * request and job in flight) runs as microtasks without ever returning to the event loop: under
 * load one turn ran 100–200 ms of queries, and the server accepted one new connection (and read
 * nothing new) per turn, so clients connecting during a burst waited seconds (docs/performance.md,
 * "PGlite and the event loop"). Before a query or transaction starts, past this budget, the
 * caller waits for one macrotask (setImmediate) and the loop handles sockets and timers.
 */
export const PGLITE_TURN_MS = 1;

/**
 * `client`'s query entry points, each waiting for the next event-loop turn first when PGlite work
 * has run for `turnMs` since the last one. Queries inside a transaction run on its own handle and
 * do not wait: the transaction holds PGlite meanwhile, and only its start waits.
 */
export function yieldingToEventLoop(client: PGlite, turnMs = PGLITE_TURN_MS): void {
  let turnStarted = performance.now();
  const turn = async (): Promise<void> => {
    if (performance.now() - turnStarted < turnMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    turnStarted = performance.now();
  };
  const query = client.query.bind(client);
  const exec = client.exec.bind(client);
  const transaction = client.transaction.bind(client);
  client.query = (async (...args: Parameters<PGlite['query']>) => {
    await turn();
    return query(...args);
  }) as PGlite['query'];
  client.exec = async (...args: Parameters<PGlite['exec']>) => {
    await turn();
    return exec(...args);
  };
  client.transaction = (async (...args: Parameters<PGlite['transaction']>) => {
    await turn();
    return transaction(...args);
  }) as PGlite['transaction'];
}

/** Distinct statement texts PGlite keeps prepared; any beyond run unnamed (parsed each time). */
export const MAX_PGLITE_NAMED_STATEMENTS = 2000;

/**
 * Statements with more parameters or text than this run unnamed: multi-row inserts (the catalog
 * import's batches) would keep a large plan each in PGlite's memory, which never shrinks.
 */
const MAX_NAMED_PARAMS = 64;
const MAX_NAMED_TEXT = 8 * 1024;

/** SQLSTATEs after which a prepared statement is prepared again: gone (26000), result changed (0A000). */
const STALE_STATEMENT = new Set(['26000', '0A000']);

type BackendMessage = Awaited<ReturnType<PGlite['execProtocolStream']>>[number];

/**
 * PGlite's `query` sends every statement unnamed (parse, describe, bind, execute), so PostgreSQL
 * parses and plans it again each time; node-postgres reuses named statements on PostgreSQL
 * (./named-statements.ts). Here a parameterised query is parsed once under a name (its parameter
 * types described once) and afterwards only bound and executed, the messages PGlite's own query
 * sends (`#runQuery` in @electric-sql/pglite's base.ts), under the same two locks, with the
 * results through the same parser. The login's account read took 0.65 ms unnamed and 0.29 ms
 * prepared (docs/performance.md, "Named statements on PGlite").
 *
 * A text is named at its second run (the catalog import's one-off batches never are); its first
 * run, queries without parameters, with a blob (COPY) or a notice callback, and any beyond
 * MAX_PGLITE_NAMED_STATEMENTS texts take PGlite's own path. `DISCARD ALL` / `DEALLOCATE` through
 * `exec` forget the names; a statement reported gone or changed is prepared again at its next run.
 */
export function withNamedStatements(client: PGlite): PGlite {
  const { serialize } = protocol;
  const names = new Map<string, { name: string; types: number[] }>();
  let counter = 0;
  const send = (message: Uint8Array): Promise<BackendMessage[]> =>
    client.execProtocolStream(message, { syncToFs: false });

  /** A statement is its text and the parameter types the caller declared, if any. */
  const keyOf = (text: string, options?: QueryOptions): string =>
    options?.paramTypes?.length ? `${text}\0${options.paramTypes.join(',')}` : text;
  /** Statements run once so far: a statement is named at its second run, so one-off texts never are. */
  const seen = new Set<string>();
  const namedFor = (text: string, params: unknown[] | undefined, options?: QueryOptions): boolean => {
    if (!client.ready || !params?.length || options?.blob || options?.onNotice) return false;
    if (params.length > MAX_NAMED_PARAMS || text.length > MAX_NAMED_TEXT) return false;
    const key = keyOf(text, options);
    if (names.has(key)) return true;
    if (names.size >= MAX_PGLITE_NAMED_STATEMENTS) return false;
    if (seen.has(key)) return true;
    if (seen.size >= MAX_PGLITE_NAMED_STATEMENTS) seen.clear();
    seen.add(key);
    return false;
  };

  /** Runs under PGlite's query lock (the caller holds the transaction lock, or is a transaction). */
  async function run<T>(
    text: string,
    params: unknown[],
    options: QueryOptions | undefined,
    inTransaction: boolean,
  ) {
    return client._runExclusiveQuery(async () => {
      const messages: BackendMessage[] = [];
      const key = keyOf(text, options);
      let statement = names.get(key);
      try {
        if (!statement) {
          const name = `p${++counter}`;
          messages.push(
            ...(await send(
              serialize.parse({ name, text, ...(options?.paramTypes && { types: options.paramTypes }) }),
            )),
          );
          const types = parse.parseDescribeStatementResults(
            await send(serialize.describe({ type: 'S', name })),
          );
          statement = { name, types };
          names.set(key, statement);
        }
        const { types } = statement;
        const values = params.map((param, i) => {
          if (param === null || param === undefined) return null;
          const serializer = options?.serializers?.[types[i]!] ?? client.serializers[types[i]!];
          // Without a serializer the parameter is a primitive (drizzle serializes JSON and dates),
          // sent as text the way PGlite's own query() sends it.
          // eslint-disable-next-line @typescript-eslint/no-base-to-string
          return serializer ? serializer(param) : String(param);
        });
        messages.push(...(await send(serialize.bind({ statement: statement.name, values }))));
        messages.push(...(await send(serialize.describe({ type: 'P' }))));
        messages.push(...(await send(serialize.execute({}))));
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (code !== undefined && STALE_STATEMENT.has(code)) names.delete(key);
        if (err instanceof Error) Object.assign(err, { query: text, params, queryOptions: options });
        throw err;
      } finally {
        messages.push(...(await send(serialize.sync())));
      }
      if (!inTransaction) await client.syncToFs();
      return parse.parseResults(messages, client.parsers, options)[0] as Results<T>;
    });
  }

  const query = client.query.bind(client);
  const exec = client.exec.bind(client);
  const transaction = client.transaction.bind(client);
  client.query = (async <T>(text: string, params?: unknown[], options?: QueryOptions) => {
    if (!namedFor(text, params, options)) return query<T>(text, params, options);
    return client._runExclusiveTransaction(() => run<T>(text, params!, options, false));
  }) as PGlite['query'];
  client.exec = async (text: string, options?: QueryOptions) => {
    try {
      return await exec(text, options);
    } finally {
      if (/\b(discard|deallocate)\b/i.test(text)) names.clear();
    }
  };
  client.transaction = <T>(callback: (tx: Transaction) => Promise<T>) =>
    transaction((tx) => {
      const txQuery = tx.query.bind(tx);
      tx.query = (async <R>(text: string, params?: unknown[], options?: QueryOptions) => {
        if (tx.closed || !namedFor(text, params, options)) return txQuery<R>(text, params, options);
        return run<R>(text, params!, options, true);
      }) as Transaction['query'];
      return callback(tx);
    });
  return client;
}

/** Several app instances in one process (tests of "two instances, one database") share one PGlite. */
export function wrapPglite(client: PGlite, ownsClient = true): Database & { client: PGlite } {
  const db = drizzlePglite(client) as unknown as Db;
  const notifications = localNotifications();
  return {
    db,
    client,
    kind: 'pglite',
    notifications,
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    migrate: () => migratePglite(db as never, { migrationsFolder: MIGRATIONS_FOLDER }),
    close: async () => {
      await notifications.close();
      if (ownsClient && !client.closed) await client.close();
    },
  };
}
