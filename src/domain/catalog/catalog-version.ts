import type { Notifications } from '../../db/notifications.js';

export interface VersionWatchDeps {
  /** Reads the version from the database (the `catalog_state` row). */
  read: () => Promise<number>;
  notifications: Notifications;
  channel: string;
  /** Poll period while the notification connection is down; ≤ 1 s keeps the 1 s promise. */
  pollMs?: number;
}

/**
 * The catalog version as this instance knows it, without a database read per request.
 *
 * Started by the first `current()`: listens for version notifications (PostgreSQL LISTEN/NOTIFY
 * from every instance, in-process on PGlite), then reads the version row once. While the
 * listener connection is down it polls the row every `pollMs`; when the connection is back it
 * reads the row once more (a notification may have been missed) and stops polling. The version
 * only moves forward.
 */
export function createVersionWatch(deps: VersionWatchDeps) {
  const pollMs = deps.pollMs ?? 500;
  let known: number | undefined;
  let starting: Promise<void> | undefined;
  let unlisten: (() => void) | undefined;
  let poll: NodeJS.Timeout | undefined;
  let closed = false;

  function advance(version: number): void {
    if (Number.isSafeInteger(version) && (known === undefined || version > known)) known = version;
  }

  async function refresh(): Promise<void> {
    try {
      advance(await deps.read());
    } catch {
      // Database unreachable: requests fail on their own; the next poll or notification catches up.
    }
  }

  function onStatus(connected: boolean): void {
    if (closed) return;
    if (connected) {
      if (poll) clearInterval(poll);
      poll = undefined;
      void refresh();
    } else if (!poll) {
      poll = setInterval(() => void refresh(), pollMs);
      poll.unref();
    }
  }

  function start(): Promise<void> {
    starting ??= (async () => {
      unlisten ??= await deps.notifications.listen(
        deps.channel,
        (payload) => advance(Number(payload)),
        onStatus,
      );
      advance(await deps.read());
    })().catch((err: unknown) => {
      starting = undefined;
      throw err;
    });
    return starting;
  }

  return {
    /** The current version: a number once known (no database read), else a promise of it. */
    current(): number | Promise<number> {
      if (known !== undefined) return known;
      return start().then(() => known ?? 0);
    },
    async close(): Promise<void> {
      closed = true;
      if (poll) clearInterval(poll);
      poll = undefined;
      unlisten?.();
      unlisten = undefined;
    },
  };
}
