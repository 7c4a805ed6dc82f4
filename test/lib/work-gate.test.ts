import { describe, expect, test } from 'vitest';
import { ManualClock } from '../../src/lib/clock.js';
import { createWorkGate, GateFullError } from '../../src/lib/work-gate.js';

/** A fake slow hash: it runs until the test finishes it, and records the order jobs started in. */
function fakeWork(clock: ManualClock) {
  const started: string[] = [];
  const pending = new Map<string, () => void>();
  const job = (name: string) => () =>
    new Promise<string>((resolve) => {
      started.push(name);
      pending.set(name, () => resolve(name));
    });
  const finish = async (name: string, ms = 0) => {
    clock.advance(ms);
    pending.get(name)!();
    pending.delete(name);
    await new Promise((r) => setImmediate(r));
  };
  return { started, job, finish };
}

const settle = () => new Promise((r) => setImmediate(r));

describe('work gate (issue 28 H2)', () => {
  test('runs at most `concurrency` jobs; the rest wait in turn', async () => {
    const clock = new ManualClock();
    const gate = createWorkGate({ concurrency: 2, maxQueued: 10, perKey: 10, clock });
    const w = fakeWork(clock);
    const results = ['a', 'b', 'c'].map((n) => gate.run(n, w.job(n)));
    await settle();
    expect(w.started).toEqual(['a', 'b']);
    expect(gate.load()).toEqual({ running: 2, waiting: 1, keys: 3 });
    await w.finish('a');
    expect(w.started).toEqual(['a', 'b', 'c']);
    await w.finish('b');
    await w.finish('c');
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c']);
    expect(gate.load()).toEqual({ running: 0, waiting: 0, keys: 0 });
  });

  test('one client cannot starve another: past its share it is refused, and turns alternate', async () => {
    const clock = new ManualClock();
    const gate = createWorkGate({ concurrency: 1, maxQueued: 100, perKey: 3, clock });
    const w = fakeWork(clock);
    const attacker = [1, 2, 3].map((i) => gate.run('10.0.0.1', w.job(`x${i}`)));
    // The fourth job of the same client is refused at once, without running.
    await expect(gate.run('10.0.0.1', w.job('x4'))).rejects.toMatchObject({ reason: 'key' });
    const victim = gate.run('10.0.0.2', w.job('v1'));
    await settle();
    expect(w.started).toEqual(['x1']);
    await w.finish('x1');
    // The victim's job goes next, before the attacker's queued ones.
    expect(w.started).toEqual(['x1', 'v1']);
    await w.finish('v1');
    await w.finish('x2');
    await w.finish('x3');
    await Promise.all([...attacker, victim]);
    // Its share is free again once its jobs ended.
    const again = gate.run('10.0.0.1', w.job('x5'));
    await settle();
    await w.finish('x5');
    expect(await again).toBe('x5');
  });

  test('a full queue refuses everyone (503-worthy), with a Retry-After measured on the clock', async () => {
    const clock = new ManualClock();
    const gate = createWorkGate({ concurrency: 1, maxQueued: 2, perKey: 10, clock });
    const w = fakeWork(clock);
    // Teach the gate that a job takes about 2 s.
    for (let i = 0; i < 12; i++) {
      const done = gate.run(undefined, w.job(`warm${i}`));
      await settle();
      await w.finish(`warm${i}`, 2000);
      await done;
    }
    const jobs = ['a', 'b', 'c'].map((n) => gate.run(n, w.job(n)));
    await settle();
    const refusal = await gate.run('d', w.job('d')).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(GateFullError);
    expect(refusal).toMatchObject({ reason: 'queue' });
    // Three jobs ahead at ~2 s each on one slot: about 6 s.
    expect((refusal as GateFullError).retryAfterSeconds).toBeGreaterThanOrEqual(5);
    expect((refusal as GateFullError).retryAfterSeconds).toBeLessThanOrEqual(6);
    expect(w.started).not.toContain('d');
    for (const n of ['a', 'b', 'c']) await w.finish(n);
    await Promise.all(jobs);
  });

  test('the service’s own work (no key) has no per-key share, only the queue bound', async () => {
    const clock = new ManualClock();
    const gate = createWorkGate({ concurrency: 1, maxQueued: 5, perKey: 1, clock });
    const w = fakeWork(clock);
    const jobs = [1, 2, 3].map((i) => gate.run(undefined, w.job(`s${i}`)));
    await settle();
    expect(gate.load()).toMatchObject({ running: 1, waiting: 2 });
    for (const n of ['s1', 's2', 's3']) await w.finish(n);
    expect(await Promise.all(jobs)).toEqual(['s1', 's2', 's3']);
  });

  test('a job that throws frees its slot and its share', async () => {
    const clock = new ManualClock();
    const gate = createWorkGate({ concurrency: 1, maxQueued: 5, perKey: 1, clock });
    await expect(gate.run('k', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(gate.load()).toEqual({ running: 0, waiting: 0, keys: 0 });
    expect(await gate.run('k', async () => 'ok')).toBe('ok');
  });
});
