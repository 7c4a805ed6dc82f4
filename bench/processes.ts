import { fork, spawn, type ChildProcess } from 'node:child_process';
import { openSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface ChildServer {
  process: ChildProcess;
  port: number;
  /** The first IPC message of the child (what it reported when it listened). */
  message?: unknown;
  stop(): Promise<void>;
}

/**
 * Starts a bench/*.ts reference server (bare node:http, argon2 loop) in its own Node process,
 * so that its memory and CPU are apart from the load generator. It listens on `port`.
 */
export function startChild(
  entry: string,
  options: { port?: number; args?: string[]; env?: NodeJS.ProcessEnv },
): Promise<ChildServer> {
  const script = fileURLToPath(new URL(entry, import.meta.url));
  // Without a port the child picks one and reports it in its first IPC message ({ port, … }).
  const portArgs = options.port === undefined ? [] : [String(options.port)];
  const child = fork(script, [...portArgs, ...(options.args ?? [])], {
    env: options.env ?? process.env,
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) =>
      reject(new Error(`${entry} exited with code ${code} before listening`));
    child.once('exit', onExit);
    child.once('error', reject);
    child.once('message', (message: unknown) => {
      child.off('exit', onExit);
      const reported = (message as { port?: number } | null)?.port;
      resolve({
        process: child,
        port: options.port ?? reported ?? 0,
        message,
        stop: () => stopChild(child),
      });
    });
  });
}

export interface ServiceProcess {
  process: ChildProcess;
  port: number;
  base: string;
  /** Milliseconds from spawn to the first GET /ready answering 200. */
  startMs: number;
  stop(): Promise<void>;
}

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/**
 * The service as `npm start` runs it: `node <flags> dist/bundle/main.mjs` (built), configured only through the
 * environment, on `port`. Resolves once GET /ready answers 200.
 */
export async function startService(
  env: NodeJS.ProcessEnv,
  port: number,
  nodeArgs: string[] = [],
): Promise<ServiceProcess> {
  const started = performance.now();
  const { flags, entry } = startCommand();
  // BENCH_SERVICE_NODE_ARGS: extra node flags for a diagnosis (`--trace-gc`), never for a figure.
  const extra = process.env.BENCH_SERVICE_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...flags, ...nodeArgs, ...extra, entry], {
    cwd: ROOT,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_BASE_URL: `http://127.0.0.1:${port}` },
    // stdout is the log, one line per request at the default level: written, as users' logs are,
    // to /dev/null rather than into the bench's table (a crash still shows on stderr), or to
    // BENCH_SERVICE_LOG (with BENCH_SERVICE_NODE_ARGS=--trace-gc, to see the pauses behind a tail).
    stdio: [
      'ignore',
      process.env.BENCH_SERVICE_LOG ? openSync(process.env.BENCH_SERVICE_LOG, 'a') : 'ignore',
      'inherit',
    ],
  });
  let exited: number | null | undefined;
  child.once('exit', (code) => (exited = code));
  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    if (exited !== undefined) throw new Error(`service exited with code ${exited} before it was ready`);
    try {
      const res = await fetch(`${base}/ready`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (performance.now() - started > 120_000) {
      child.kill('SIGKILL');
      throw new Error('service not ready after 120 s');
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const startMs = Math.round(performance.now() - started);
  return { process: child, port, base, startMs, stop: () => stopChild(child) };
}

/**
 * The node flags and entry file of `npm start` (`exec node <flags> dist/….mjs` in package.json):
 * the bench runs what users run.
 */
export function startCommand(): { flags: string[]; entry: string } {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const match = /\bnode\s+(.*?)\s*(dist\/\S+\.m?js)\s*$/.exec(pkg.scripts.start ?? '');
  if (!match)
    throw new Error(
      'package.json "start" no longer runs node <flags> dist/<entry>: update bench/processes.ts',
    );
  return { flags: match[1]!.split(/\s+/).filter(Boolean), entry: match[2]! };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

function statusFieldMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1];
  return kb ? Number(kb) / 1024 : Number.NaN;
}

/** `pid` and all its descendants (Linux /proc). */
export function processTree(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = parents.get(ppid) ?? [];
      list.push(Number(entry));
      parents.set(ppid, list);
    } catch {
      // gone meanwhile
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(parents.get(tree[i]!) ?? []));
  return tree;
}

function sumOverTree(pid: number, field: 'VmRSS' | 'VmHWM', tree = processTree(pid)): number {
  let total = 0;
  for (const p of tree) {
    try {
      total += statusFieldMb(p, field);
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

/** Resident set size of a process tree in MB. */
export function treeRssMb(pid: number): number {
  return sumOverTree(pid, 'VmRSS');
}

/** Sum of the kernel's RSS high-water marks over a process tree (each process's peak), in MB. */
export function treePeakRssMb(pid: number): number {
  return sumOverTree(pid, 'VmHWM');
}

/**
 * Samples a process tree's RSS every `intervalMs` until stopped; returns the highest sample.
 * `fixedTree`: the tree is listed once, at the start. Listing it reads every /proc entry (4–13 ms
 * here), a stall of this process's event loop every sample; an open-loop run, which times each
 * request from when it was due, would count those stalls as the service's latency.
 */
export function sampleRss(pid: number, intervalMs = 100, fixedTree = false): { stop(): number } {
  const tree = fixedTree ? processTree(pid) : undefined;
  const sample = () => sumOverTree(pid, 'VmRSS', tree ?? processTree(pid));
  let peak = sample();
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, sample());
    } catch {
      // The process is gone; keep the peak seen so far.
    }
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}

/** CPU seconds (user + system) these processes have used so far (Linux /proc, 100 ticks a second). */
export function cpuSeconds(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone
    }
  }
  return ticks / 100;
}

/**
 * Waits until the process uses less than `busyShare` of a core over a second: the work a module
 * left behind (the worker's backlog of order jobs) is done before the next module measures.
 * Gives up after `maxMs`; returns how long it waited.
 */
export async function waitUntilQuiet(pid: number, maxMs = 120_000, busyShare = 0.1): Promise<number> {
  if (maxMs <= 0) return 0;
  const started = performance.now();
  for (;;) {
    const before = cpuSeconds([pid]);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const waited = performance.now() - started;
    if (cpuSeconds([pid]) - before < busyShare || waited >= maxMs) return Math.round(waited);
  }
}
