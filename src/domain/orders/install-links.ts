import type { PlanFacts } from '../catalog/plan-names.js';
import { AppError } from '../errors.js';
import { newInstallToken } from './esim-links.js';
import type { createEsimReads } from './esims.js';
import type { OrderChannel } from './order-numbers.js';
import type { EsimRow } from './ports.js';

/**
 * The hosted install page of an eSIM (issue 30 T2): `/install/<token>` is public and shows how to
 * install the eSIM, its usage and a top-up link, so the buyer can open it on the phone and a
 * partner can hand it to the traveller. The token is its only credential; the owner replaces it
 * (Mobile session or Partner key) and the old link stops working at once.
 */

/** Whose eSIM: an account, in one mode; with a channel, only eSIMs of orders placed through it. */
export interface EsimOwner {
  accountId: string;
  livemode: boolean;
  channel?: OrderChannel;
}

/** What the install page shows: the eSIM with fresh usage, its plan, and its order's channel. */
export interface InstallPageView {
  esim: EsimRow;
  plan: PlanFacts | null;
  channel: OrderChannel;
}

const NOT_YOURS = 'No eSIM of yours has this ICCID';

export function createInstallLinks(reads: ReturnType<typeof createEsimReads>) {
  async function own(owner: EsimOwner, iccid: string): Promise<EsimRow> {
    const esim = await reads.findOwnByIccid(owner.accountId, iccid, owner.livemode, owner.channel);
    // Another account's eSIM and an unknown ICCID answer alike: ICCIDs are not secrets, but
    // whose they are is.
    if (!esim) throw new AppError('ESIM_NOT_FOUND', NOT_YOURS);
    return esim;
  }

  return {
    /** The owner's eSIM by ICCID, usage refreshed (the eSIM's own page). */
    getOwnEsim: async (owner: EsimOwner, iccid: string): Promise<EsimRow> => {
      const [fresh] = await reads.refreshUsage([await own(owner, iccid)]);
      return fresh!;
    },

    /** A new install link for the owner's eSIM; the previous one answers 404 from now on. */
    replaceInstallLink: async (owner: EsimOwner, iccid: string): Promise<EsimRow> => {
      const esim = await own(owner, iccid);
      return reads.replaceInstallToken(esim.id, newInstallToken());
    },

    /** The page behind a token, with usage no older than USAGE_CACHE_SECONDS. */
    installPage: async (installToken: string): Promise<InstallPageView> => {
      const found = await reads.findByInstallToken(installToken);
      if (!found) throw new AppError('ESIM_NOT_FOUND', 'No eSIM behind this install link');
      const [esim] = await reads.refreshUsage([found.esim]);
      return { esim: esim!, plan: found.plan, channel: found.channel };
    },
  };
}

export type InstallLinks = ReturnType<typeof createInstallLinks>;
