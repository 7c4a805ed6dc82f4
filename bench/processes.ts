import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface ChildServer {
  process: ChildProcess;
  port: number;
  /** Everything the child reported with its port (a seeding child also reports what it made). */
  message: Record<string, unknown>;
  stop(): Promise<void>;
}

/**
 * Starts a bench/*.ts entry in its own Node process (through tsx, as `npm start` does), so that
 * its memory is measured apart from the load generator. Resolves once it reports its port.
 */
export function startChild(
  entry: string,
  options: { args?: string[]; env?: NodeJS.ProcessEnv } = {},
): Promise<ChildServer> {
  const script = fileURLToPath(new URL(entry, import.meta.url));
  const child = fork(script, options.args ?? [], {
    env: options.env ?? process.env,
    // BENCH_CPU_PROF_DIR: every child writes a V8 CPU profile there when it exits.
    execArgv: [
      '--import',
      'tsx',
      ...(process.env.BENCH_CPU_PROF_DIR
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF_DIR}`]
        : []),
    ],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) =>
      reject(new Error(`${entry} exited with code ${code} before listening`));
    child.once('exit', onExit);
    child.once('error', reject);
    child.once('message', (message) => {
      child.off('exit', onExit);
      const port = (message as { port: number }).port;
      resolve({
        process: child,
        port,
        message: message as Record<string, unknown>,
        stop: () => stopChild(child),
      });
    });
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
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

/** Resident set size of a process in MB, from /proc (Linux). */
export function rssMb(pid: number): number {
  return statusFieldMb(pid, 'VmRSS');
}

/** The highest RSS a process has had since it started (the kernel's high-water mark), in MB. */
export function peakRssMb(pid: number): number {
  return statusFieldMb(pid, 'VmHWM');
}

/** Samples a process's RSS every `intervalMs` until stopped; returns the highest sample. */
export function sampleRss(pid: number, intervalMs = 100): { stop(): number } {
  let peak = rssMb(pid);
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssMb(pid));
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
