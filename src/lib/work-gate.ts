import type { Clock } from './clock.js';

/** Why the gate turned work away, and a hint of when it may take it (whole seconds, at least 1). */
export class GateFullError extends Error {
  constructor(
    /** `key`: this key already holds its share; `queue`: the whole queue is full. */
    readonly reason: 'key' | 'queue',
    readonly retryAfterSeconds: number,
  ) {
    super(reason === 'key' ? 'This client already has its share of work queued' : 'The work queue is full');
    this.name = 'GateFullError';
  }
}

export interface WorkGateOptions {
  /** Jobs running at once. */
  concurrency: number;
  /** Jobs waiting at most (running ones not counted); past it new work is refused. */
  maxQueued: number;
  /** Jobs one key may have waiting and running together; past it that key's work is refused. */
  perKey: number;
  /** Measures how long a job takes, for the Retry-After hint. */
  clock: Clock;
}

export interface WorkGate {
  /**
   * Runs `work` when a slot is free. `key` names the client that asks (its address); undefined
   * is the service's own work, bound only by the queue length. Throws GateFullError at once,
   * without running `work`, when the key's share or the queue is full.
   */
  run<T>(key: string | undefined, work: () => Promise<T>): Promise<T>;
  load(): { running: number; waiting: number; keys: number };
}

/**
 * A bounded concurrency gate that is fair between keys. Waiting jobs sit in one FIFO per key and
 * a free slot goes to the waiting key that has started the fewest jobs since it last had none
 * (ties: the key waiting longest), so a key with many jobs waiting delays another key's job by
 * at most one of its own; and each key may hold at most `perKey` jobs, so no single client can
 * fill the queue (p-limit alone has neither bound: one client could queue without end and
 * everyone else waited behind it).
 */
export function createWorkGate(options: WorkGateOptions): WorkGate {
  const { concurrency, maxQueued, perKey, clock } = options;
  let running = 0;
  let waitingCount = 0;
  /** Waiting jobs per key, in the order the keys began waiting. */
  const waiting = new Map<string | undefined, Array<() => void>>();
  /** Per key with jobs waiting or running: how many it holds, and how many it has started. */
  const held = new Map<string | undefined, { jobs: number; started: number }>();
  /** Moving average of a job's duration (ms); the first jobs assume 50 ms. */
  let averageMs = 50;

  function retryAfterSeconds(): number {
    const ahead = running + waitingCount;
    return Math.max(1, Math.ceil((ahead * averageMs) / Math.max(1, concurrency) / 1000));
  }

  function startNext(): void {
    let next: { key: string | undefined; started: number } | undefined;
    for (const key of waiting.keys()) {
      const started = held.get(key)!.started;
      if (!next || started < next.started) next = { key, started };
    }
    if (!next) {
      running--;
      return;
    }
    const queue = waiting.get(next.key)!;
    const start = queue.shift()!;
    if (queue.length === 0) waiting.delete(next.key);
    waitingCount--;
    held.get(next.key)!.started++; // now, not when it resumes: the next pick must see it
    start(); // the slot passes to it: `running` stays the same
  }

  async function run<T>(key: string | undefined, work: () => Promise<T>): Promise<T> {
    const mine = held.get(key);
    if (key !== undefined && (mine?.jobs ?? 0) >= perKey) throw new GateFullError('key', retryAfterSeconds());
    if (running >= concurrency && waitingCount >= maxQueued) {
      throw new GateFullError('queue', retryAfterSeconds());
    }
    const entry = mine ?? { jobs: 0, started: 0 };
    entry.jobs++;
    held.set(key, entry);
    try {
      if (running < concurrency) {
        running++;
        entry.started++;
      } else {
        waitingCount++;
        await new Promise<void>((resolve) => {
          const queue = waiting.get(key);
          if (queue) queue.push(resolve);
          else waiting.set(key, [resolve]);
        });
      }
      const started = clock.now().getTime();
      try {
        return await work();
      } finally {
        averageMs = 0.8 * averageMs + 0.2 * Math.max(0, clock.now().getTime() - started);
        startNext();
      }
    } finally {
      if (--entry.jobs === 0) held.delete(key);
    }
  }

  return { run, load: () => ({ running, waiting: waitingCount, keys: held.size }) };
}
