import type { BenchModule } from './harness.js';
import { ratioRow } from './harness.js';
import { runPair } from './load.js';
import { startChild } from './processes.js';

export const MIN_LOGIN_RATIO = 0.9;

/**
 * POST /api/v1/auth/login (one user, right password) vs a bare node:http server doing one argon2id
 * verify of the same hash per request, same concurrency. Target ≥ 0.9× on both databases.
 */
export const loginModule: BenchModule = {
  name: 'login',
  async run(ctx) {
    const { email, password, hashFile } = ctx.seed.login;
    const body = JSON.stringify({ email, password });
    const argon = await startChild('./argon2-server.ts', {
      port: ctx.nextPort(),
      args: [hashFile],
      env: { ...process.env, BENCH_PASSWORD: password },
    });
    try {
      ctx.log(`${ctx.database}: POST /auth/login and argon2id verify, ${ctx.rounds} rounds …`);
      const { reference, result } = await runPair(
        {
          name: 'node:http + argon2id verify',
          url: `http://127.0.0.1:${argon.port}/`,
          method: 'POST',
          body,
          pid: argon.process.pid!,
        },
        {
          name: 'POST /auth/login',
          url: `${ctx.service.base}/api/v1/auth/login`,
          method: 'POST',
          body,
          pid: ctx.service.process.pid!,
        },
        ctx.settings,
        ctx.rounds,
      );
      return [ratioRow('Mobile POST /auth/login', ctx, result, reference, MIN_LOGIN_RATIO)];
    } finally {
      await argon.stop();
    }
  },
};
