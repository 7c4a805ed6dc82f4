/**
 * The fault tests' private PostgreSQL and Redis, started from Debian's binaries on their own ports
 * and data directories: a fault test never touches the machine's shared servers.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------
// Private PostgreSQL

function postgresBin(name: string): string {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base)
    ? readdirSync(base)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const v of versions) {
    const path = join(base, v, 'bin', name);
    if (existsSync(path)) return path;
  }
  return name;
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** PostgreSQL refuses to run as root: as root, run its tools as the `postgres` user. */
async function asPostgres(bin: string, args: string[]) {
  const [cmd, argv] = isRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  return run(cmd, argv, { timeout: 60_000 });
}

export interface PrivatePostgres {
  port: number;
  /** URL of a database on this server (`postgres` when omitted). */
  url(database?: string): string;
  createDatabase(name: string): Promise<string>;
  start(): Promise<void>;
  /** `fast` disconnects every client (a planned restart); `immediate` is a crash. */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  destroy(): Promise<void>;
}

export async function startPrivatePostgres(port: number): Promise<PrivatePostgres> {
  const dir = mkdtempSync(join(tmpdir(), `faults-pg-${port}-`));
  if (isRoot) chownSync(dir, Number((await run('id', ['-u', 'postgres'])).stdout), 0);
  const data = join(dir, 'data');
  await asPostgres(postgresBin('initdb'), [
    '-D',
    data,
    '-A',
    'trust',
    '-U',
    'postgres',
    '--no-sync',
    '-E',
    'UTF8',
  ]);
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    '-c fsync=off',
    '-c full_page_writes=off',
    '-c max_connections=200',
  ].join(' ');
  const self: PrivatePostgres = {
    port,
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: self.url() });
      await client.connect();
      await client.query(`create database ${name}`);
      await client.end();
      return self.url(name);
    },
    async start() {
      await asPostgres(postgresBin('pg_ctl'), [
        '-D',
        data,
        '-l',
        join(dir, 'log'),
        '-o',
        options,
        '-w',
        '-t',
        '30',
        'start',
      ]);
    },
    async stop(mode = 'fast') {
      await asPostgres(postgresBin('pg_ctl'), ['-D', data, '-m', mode, '-w', '-t', '30', 'stop']);
    },
    async destroy() {
      await self.stop('immediate').catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await self.start();
  return self;
}

// ---------------------------------------------------------------------------------------------
// Private Redis

export interface PrivateRedis {
  port: number;
  url: string;
  start(): Promise<void>;
  /** SIGKILL: Redis disappears without a goodbye. */
  stop(): Promise<void>;
}

export async function startPrivateRedis(port: number): Promise<PrivateRedis> {
  let child: ChildProcess | undefined;
  const self: PrivateRedis = {
    port,
    url: `redis://127.0.0.1:${port}`,
    async start() {
      child = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        {
          stdio: 'ignore',
        },
      );
      for (let i = 0; i < 100; i++) {
        const ok = await run('redis-cli', ['-p', String(port), 'ping']).then(
          (r) => r.stdout.trim() === 'PONG',
          () => false,
        );
        if (ok) return;
        await sleep(100);
      }
      throw new Error(`private redis on ${port} did not start`);
    },
    async stop() {
      const c = child;
      child = undefined;
      if (!c || c.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => c.once('exit', () => resolve()));
      c.kill('SIGKILL');
      await exited;
    },
  };
  await self.start();
  return self;
}
