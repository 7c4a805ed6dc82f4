import type { Tx } from '../../db/client.js';

/**
 * Reacts, inside the transaction that stored it, to a change of an eSIM's usage, status or
 * validity: partner events, traveller alerts and auto top-ups each register one. Run in the
 * writer's transaction so that a reaction (an event, a job) commits with the change or not at all.
 */
export type EsimChangeObserver = (tx: Tx, esimId: string) => Promise<void>;

/**
 * The one place every writer of eSIM usage, status or validity reports to (provider
 * notifications, the usage refresh, the status poll, test mode and the sandbox): observers are
 * added by the container, in the order they run.
 */
export function createEsimChanges() {
  const observers: EsimChangeObserver[] = [];
  return {
    observe(observer: EsimChangeObserver): void {
      observers.push(observer);
    },
    async changed(tx: Tx, esimId: string): Promise<void> {
      for (const observer of observers) await observer(tx, esimId);
    },
  };
}

export type EsimChanges = ReturnType<typeof createEsimChanges>;
