/**
 * The eSIM wholesale provider contract. Amounts are USD cents, data volumes MB, times Date.
 * Adapters translate their vendor's units and errors; the domain never sees vendor shapes.
 */

export interface ProviderPackage {
  /** The provider's package code: the stable key the catalog sync imports by. */
  packageCode: string;
  name: string;
  description: string;
  /** ISO alpha-2 codes the package covers (one for a country package). */
  coverage: string[];
  /** 'country' for one country, 'region' for a multi-country package, 'global' for worldwide. */
  scope: 'country' | 'region' | 'global';
  /** Region code for regional/global packages (provider-specific, mapped by the catalog). */
  regionCode?: string;
  dataAmountMb: number;
  durationDays: number;
  isTopUp: boolean;
  wholesaleCents: number;
}

export type ProviderEsimStatus = 'PENDING' | 'ACTIVE' | 'DEPLETED' | 'EXPIRED' | 'CANCELLED';

export interface ProviderProfile {
  /** Provider's own profile id (eSIM Access esimTranNo). ICCIDs can be reused; this cannot. */
  providerRef: string;
  iccid: string;
  smdpAddress: string;
  matchingId: string;
  /** LPA string `LPA:1$<smdp>$<matchingId>`. */
  activationCode: string;
  status: ProviderEsimStatus;
  totalVolumeMb: number;
  dataUsageMb: number;
  activatedAt: Date | null;
  expiresAt: Date | null;
}

export interface ProviderUsage {
  providerRef: string;
  dataUsageMb: number;
  totalVolumeMb: number;
  status?: ProviderEsimStatus;
}

export interface IssueRequest {
  /** Our order id: the provider's idempotency key, so a retried issue never buys twice. */
  orderId: string;
  packageCode: string;
  quantity: number;
  /** Expected wholesale price per profile in cents (a price check where the provider supports it). */
  wholesaleCents?: number;
}

export interface TopUpRequest {
  orderId: string;
  providerRef: string;
  iccid: string;
  packageCode: string;
}

/**
 * Errors are thrown as EsimProviderError; `retryable` tells fulfillment whether a later attempt
 * can succeed (timeouts, allocation still pending, provider busy) or not (unknown package).
 */
export class EsimProviderError extends Error {
  constructor(
    readonly kind:
      | 'insufficient_funds'
      | 'unknown_package'
      | 'allocation_pending'
      | 'not_cancellable'
      | 'not_found'
      | 'rejected'
      | 'unavailable',
    message: string,
    readonly retryable: boolean,
    readonly providerCode?: string,
  ) {
    super(message);
    this.name = 'EsimProviderError';
  }
}

export interface EsimProvider {
  readonly name: string;
  /** Every package the provider sells (base and top-up). */
  listPackages(): Promise<ProviderPackage[]>;
  /** Issues `quantity` profiles; idempotent on `orderId`. Resolves once profiles are allocated. */
  issueProfiles(request: IssueRequest): Promise<ProviderProfile[]>;
  /** Current state of profiles issued for one order, or of one profile by providerRef. */
  queryProfiles(query: { orderId: string } | { providerRef: string }): Promise<ProviderProfile[]>;
  /** Usage for up to 10 profiles. */
  queryUsage(providerRefs: string[]): Promise<ProviderUsage[]>;
  /** Adds a top-up package to an existing profile; idempotent on `orderId`. */
  topUp(request: TopUpRequest): Promise<ProviderProfile>;
  /** Cancels an unused profile (the provider refunds us). */
  cancelProfile(providerRef: string): Promise<void>;
}
