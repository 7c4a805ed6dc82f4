import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/** The file in DATA_DIR that names the process holding the embedded database. */
export const DATA_DIR_LOCK_FILE = 'service.lock';

/** Another live process holds the data directory (PGlite is single-process). */
export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: { pid: number; host: string },
  ) {
    super(
      `The embedded database in ${dataDir} is in use by process ${holder.pid} on ${holder.host}: ` +
        'PGlite is single-process, so stop the service (or the other command) first. If no such ' +
        `process runs any more, delete ${join(dataDir, DATA_DIR_LOCK_FILE)}.`,
    );
    this.name = 'DataDirInUseError';
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(path: string): { pid: number; host: string } | null {
  try {
    const [pid, host] = readFileSync(path, 'utf8').trim().split(/\s+/);
    return pid && /^\d+$/.test(pid) ? { pid: Number(pid), host: host ?? '' } : null;
  } catch {
    return null;
  }
}

/**
 * Claims `dataDir` for this process: PGlite takes no lock of its own, and two processes writing
 * the same files corrupt the database (an `npm run operator` or `reconcile` beside `npm start`).
 * The lock file holds `<pid> <host>`; a file left by a process that no longer runs on this host
 * (a crash, a kill -9, the same pid after a container restart) is taken over. A holder on another
 * host cannot be checked, so it counts as live. Returns the release function.
 */
export function lockDataDir(dataDir: string): () => void {
  const path = join(dataDir, DATA_DIR_LOCK_FILE);
  const me = `${process.pid} ${hostname()}\n`;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, me);
      closeSync(fd);
      return () => {
        try {
          if (readFileSync(path, 'utf8') === me) unlinkSync(path);
        } catch {
          // Already gone.
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = readHolder(path);
    const stale =
      holder === null || (holder.host === hostname() && (holder.pid === process.pid || !alive(holder.pid)));
    if (!stale) throw new DataDirInUseError(dataDir, holder);
    try {
      unlinkSync(path);
    } catch {
      // Another process took it over first: the next attempt reads its name.
    }
  }
  throw new DataDirInUseError(dataDir, readHolder(path) ?? { pid: 0, host: 'unknown' });
}
