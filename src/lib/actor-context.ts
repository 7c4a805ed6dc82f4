import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Who is acting for the work in progress: `operator:<id>` or `token` on the operator API (set
 * by its surface for the route handler, src/http/admin/index.ts). The audit service reads it when
 * an entry names no actor, so no operator action can reach the audit log without its operator,
 * however deep in the domain the row is written.
 */
const storage = new AsyncLocalStorage<{ actor: string }>();

export function runAs<T>(actor: string, work: () => T): T {
  return storage.run({ actor }, work);
}

export function currentActor(): string | undefined {
  return storage.getStore()?.actor;
}
