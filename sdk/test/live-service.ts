import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A running service for the integration test: SDK_TEST_BASE_URL when set, otherwise `npm start`
 * in the repository root on in-memory PGlite (DATABASE_URL=memory://) with the sandbox providers,
 * on SDK_TEST_PORT (default 3611), stopped afterwards.
 */
export interface LiveService {
  baseUrl: string;
  stop(): Promise<void>;
}

const repositoryRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

async function waitUntilReady(baseUrl: string, child: ChildProcess | undefined, output: () => string) {
  const deadline = Date.now() + 150_000;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`the service exited early:\n${output()}`);
    try {
      const res = await fetch(`${baseUrl}/ready`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the service did not become ready at ${baseUrl}:\n${output()}`);
}

export async function startLiveService(): Promise<LiveService> {
  const external = process.env.SDK_TEST_BASE_URL;
  if (external) {
    await waitUntilReady(external.replace(/\/+$/, ''), undefined, () => '');
    return { baseUrl: external.replace(/\/+$/, ''), stop: async () => {} };
  }
  const port = process.env.SDK_TEST_PORT ?? '3611';
  const baseUrl = `http://127.0.0.1:${port}`;
  let output = '';
  const child = spawn('npm', ['start'], {
    cwd: repositoryRoot,
    detached: true, // its own process group: npm, tsx and node stop together
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      DATABASE_URL: 'memory://',
      HOST: '127.0.0.1',
      PORT: port,
      PUBLIC_BASE_URL: baseUrl,
      LOG_LEVEL: 'warn',
      ADMIN_TOKEN: '',
      REDIS_URL: '',
      CARD_PROVIDER: 'sandbox',
      CRYPTO_PROVIDER: 'sandbox',
      ESIM_PROVIDER: 'sandbox',
    },
  });
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid!, 'SIGTERM');
    const timer = setTimeout(() => child.exitCode === null && process.kill(-child.pid!, 'SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  try {
    await waitUntilReady(baseUrl, child, () => output);
  } catch (err) {
    await stop();
    throw err;
  }
  return { baseUrl, stop };
}
