import type { Db } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { createOverviewRepository, type Period } from './overview.repository.js';

export interface Overview {
  /** The UTC day the figures are for, [from, to). */
  day: Period;
  generatedAt: Date;
  sales: {
    channels: Array<{ channel: 'mobile' | 'partner'; orders: number; revenueCents: number }>;
    orders: number;
    revenueCents: number;
  };
  fulfilmentFailures: { ordersWithFailedAttempts: number; refundedOrders: number };
  deadJobs: number;
  tickets: { open: number; waitingForCustomer: number };
  /** Always null: the eSIM provider contract has no balance call (src/providers/esim/types.ts). */
  providerBalance: null;
}

const CHANNELS = ['mobile', 'partner'] as const;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The operator console's overview: today's business at a glance (issue 33 O2). */
export function createConsoleOverview(deps: { db: Db; clock: Clock }) {
  const repo = createOverviewRepository(deps.db);

  return {
    async get(): Promise<Overview> {
      const now = deps.clock.now();
      const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
      const day = { from, to: new Date(from.getTime() + DAY_MS) };
      const [sales, failed, refunded, deadJobs, tickets] = await Promise.all([
        repo.completedByChannel(day),
        repo.ordersWithFailedAttempts(day),
        repo.refundedOrders(day),
        repo.deadJobs(),
        repo.activeTickets(),
      ]);
      // Every channel appears, with zeros on a quiet day, so a console can lay out fixed tiles.
      const channels = CHANNELS.map((channel) => {
        const row = sales.find((s) => s.channel === channel);
        return { channel, orders: row?.orders ?? 0, revenueCents: row?.revenueCents ?? 0 };
      });
      return {
        day,
        generatedAt: now,
        sales: {
          channels,
          orders: channels.reduce((n, c) => n + c.orders, 0),
          revenueCents: channels.reduce((n, c) => n + c.revenueCents, 0),
        },
        fulfilmentFailures: { ordersWithFailedAttempts: failed, refundedOrders: refunded },
        deadJobs,
        tickets: { open: tickets.open, waitingForCustomer: tickets.answered },
        providerBalance: null,
      };
    },
  };
}

export type ConsoleOverview = ReturnType<typeof createConsoleOverview>;
