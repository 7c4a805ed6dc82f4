import pg from 'pg';

/**
 * Change notifications between instances of the service.
 *
 * - `publishLocal` delivers to the listeners of this process at once (call it after commit).
 * - On PostgreSQL, `listen` also holds one dedicated connection per process that LISTENs on
 *   every channel listened to, so a `pg_notify(channel, payload)` sent inside any process's
 *   transaction reaches every process when that transaction commits. When that connection is
 *   lost, listeners are told (`onStatus(false)`) so they can poll until it is back
 *   (`onStatus(true)`, after which they should re-read what they may have missed).
 * - On PGlite (one process) only `publishLocal` exists: `onStatus` is called once with true.
 */
export interface Notifications {
  listen(
    channel: string,
    onMessage: (payload: string) => void,
    onStatus?: (connected: boolean) => void,
  ): Promise<() => void>;
  publishLocal(channel: string, payload: string): void;
  close(): Promise<void>;
}

interface Listener {
  channel: string;
  onMessage: (payload: string) => void;
  onStatus?: (connected: boolean) => void;
}

/** Channel names are SQL identifiers in LISTEN: only simple lower-case names are allowed. */
const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;

function checkChannel(channel: string): void {
  if (!CHANNEL.test(channel)) throw new Error(`invalid notification channel "${channel}"`);
}

function deliver(listeners: Set<Listener>, channel: string, payload: string): void {
  for (const l of listeners) if (l.channel === channel) l.onMessage(payload);
}

/** In-process only (PGlite). */
export function localNotifications(): Notifications {
  const listeners = new Set<Listener>();
  return {
    async listen(channel, onMessage, onStatus) {
      checkChannel(channel);
      const listener = { channel, onMessage, onStatus };
      listeners.add(listener);
      onStatus?.(true);
      return () => void listeners.delete(listener);
    },
    publishLocal: (channel, payload) => deliver(listeners, channel, payload),
    close: async () => listeners.clear(),
  };
}

export interface PgNotificationOptions {
  connectionString: string;
  /** Wait before reconnecting a lost listener connection. */
  reconnectMs?: number;
  connectTimeoutMs?: number;
}

/** PostgreSQL LISTEN/NOTIFY on one dedicated connection, opened on the first `listen`. */
export function pgNotifications(options: PgNotificationOptions): Notifications {
  const listeners = new Set<Listener>();
  const reconnectMs = options.reconnectMs ?? 1000;
  let client: pg.Client | undefined;
  let connecting: Promise<void> | undefined;
  let connected = false;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const channels = () => new Set([...listeners].map((l) => l.channel));

  function setStatus(up: boolean): void {
    if (connected === up) return;
    connected = up;
    for (const l of listeners) l.onStatus?.(up);
  }

  function scheduleReconnect(): void {
    if (closed || retry || listeners.size === 0) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, reconnectMs);
    retry.unref();
  }

  function lost(c: pg.Client): void {
    if (client !== c) return;
    client = undefined;
    c.removeAllListeners('notification');
    c.end().catch(() => undefined);
    setStatus(false);
    scheduleReconnect();
  }

  function connect(): Promise<void> {
    connecting ??= (async () => {
      const c = new pg.Client({
        connectionString: options.connectionString,
        connectionTimeoutMillis: options.connectTimeoutMs ?? 3000,
        keepAlive: true,
      });
      c.on('error', () => lost(c));
      c.on('end', () => lost(c));
      c.on('notification', (n) => deliver(listeners, n.channel, n.payload ?? ''));
      try {
        await c.connect();
        if (closed) {
          await c.end();
          return;
        }
        client = c;
        for (const channel of channels()) await c.query(`listen ${channel}`);
        setStatus(true);
      } catch {
        c.end().catch(() => undefined);
        if (client === c) client = undefined;
        setStatus(false);
        scheduleReconnect();
      }
    })().finally(() => {
      connecting = undefined;
    });
    return connecting;
  }

  return {
    async listen(channel, onMessage, onStatus) {
      checkChannel(channel);
      const isNew = !channels().has(channel);
      const listener = { channel, onMessage, onStatus };
      listeners.add(listener);
      if (connecting) await connecting;
      if (!client) await connect();
      else if (isNew) await client.query(`listen ${channel}`).catch(() => lost(client!));
      onStatus?.(connected);
      return () => void listeners.delete(listener);
    },
    publishLocal: (channel, payload) => deliver(listeners, channel, payload),
    async close() {
      closed = true;
      listeners.clear();
      if (retry) clearTimeout(retry);
      if (connecting) await connecting;
      const c = client;
      client = undefined;
      if (c) {
        c.removeAllListeners('end');
        await c.end().catch(() => undefined);
      }
    },
  };
}
