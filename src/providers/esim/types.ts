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
  /** When validity starts: on installation or on the first network connection. */
  activationPolicy: 'first_install' | 'first_connection';
  /** A base package whose eSIM takes top-up packages later (false for top-ups themselves). */
  topUpSupported: boolean;
}

export type ProviderEsimStatus = 'PENDING' | 'ACTIVE' | 'DEPLETED' | 'EXPIRED' | 'CANCELLED';

/**
 * Where the profile is on the device, from the provider's lifecycle (eSIM Access smdpStatus:
 * RELEASED = downloadable, DOWNLOAD/INSTALLATION = INSTALLED, then ENABLED, DISABLED, DELETED).
 */
export type ProviderInstallState = 'RELEASED' | 'INSTALLED' | 'ENABLED' | 'DISABLED' | 'DELETED';

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
  /**
   * Self-service cancel (issue 31 L4): the profile was ever downloaded to a device (eSIM Access:
   * smdpStatus past RELEASED, or an installation time). Absent when the provider does not say;
   * the domain then treats any status but PENDING as installed.
   */
  everInstalled?: boolean;
  /** The profile's install state, when the provider reports one (issue 31 L3). */
  installState?: ProviderInstallState;
}

export interface ProviderUsage {
  providerRef: string;
  dataUsageMb: number;
  totalVolumeMb: number;
  status?: ProviderEsimStatus;
  /** When the provider measured it (eSIM Access lastUpdateTime); absent: unknown. */
  measuredAt?: Date;
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

/** Where a notification's eSIM is: the provider's ref when it names one (ICCIDs can be reused), else the ICCID. */
export interface NotifiedEsim {
  providerRef?: string;
  iccid?: string;
}

/**
 * What a provider notification means, in our terms: the domain applies these and knows no vendor
 * format. A field the provider left out, or sent unreadable, is absent: the eSIM is still looked
 * up (an unknown one is recorded as such), nothing changes.
 */
export type EsimNotice =
  /** A probe (eSIM Access sends one when the URL is saved): acknowledged, nothing applied. */
  | { kind: 'health_check' }
  /** The profiles of our order `orderId` are allocated: fetch them now, not at the next retry. */
  | { kind: 'order_ready'; orderId: string }
  /** The eSIM's state at the provider; it only ever moves an eSIM forward (or revives a top-up). */
  | {
      kind: 'status';
      esim: NotifiedEsim;
      status?: ProviderEsimStatus;
      /** The profile's install state on the device, when the notification says. */
      installState?: ProviderInstallState;
    }
  /** Data used and total volume of the eSIM's packages; `measuredAt`: when the provider measured it. */
  | {
      kind: 'usage';
      esim: NotifiedEsim;
      usage?: { usedMb: number; totalMb: number };
      measuredAt?: Date;
    }
  /** When the eSIM's validity ends. */
  | { kind: 'validity'; esim: NotifiedEsim; expiresAt?: Date }
  /** Anything else the provider reports: recorded with its outcome, not applied. */
  | { kind: 'other' };

/** One notification of a webhook delivery, as the provider's adapter read it. */
export interface EsimNotification {
  /** The provider's id of it: the same id again is a replay. Absent: the payload is its identity. */
  id?: string;
  /** The provider's name of its type (eSIM Access: notifyType), recorded with it. */
  type: string;
  notice: EsimNotice;
  /** What the provider sent for it, recorded as received. */
  payload: unknown;
}

/** What a provider's webhook verification looks at. */
export interface EsimWebhookRequest {
  /** The secret path segment of `/webhooks/esim/<provider>/<token>` (or of an alias). */
  token: string;
  /**
   * The sender's address: the TCP peer, or under TRUST_PROXY (a list of proxy addresses) the
   * address the trusted proxies forwarded.
   */
  peerAddress: string;
  headers: Record<string, string | string[] | undefined>;
  /** The exact bytes received, for providers that sign them (empty without a body). */
  rawBody: Buffer;
}

/**
 * Why a webhook request is refused. `unknown_url`: answered as if the URL did not exist (a wrong
 * token or an unconfigured webhook: a prober learns nothing). `forbidden`: the sender is not the
 * provider (address, signature). `invalid`: a body the adapter cannot read. `message` is the
 * answer's; `logReason`, when set, goes to the log only.
 */
export class EsimWebhookError extends Error {
  constructor(
    readonly kind: 'unknown_url' | 'forbidden' | 'invalid',
    message: string,
    readonly options: { field?: string; logReason?: string } = {},
  ) {
    super(message);
    this.name = 'EsimWebhookError';
  }
}

/**
 * How a provider reports changes (allocation, status, usage, validity). The HTTP route
 * `POST /webhooks/esim/<name>/<token>` hands requests to `verify`, then the parsed JSON body to
 * `parse`; providers that deliver in-process (the sandbox, through a job) only need `parse`
 * to be called and refuse HTTP in `verify`.
 */
export interface EsimProviderWebhook {
  /**
   * Further first path segments the webhook answers at, `/webhooks/<alias>/<token>`: URLs already
   * configured at the provider before the generic one existed.
   */
  readonly aliases?: readonly string[];
  /** Throws EsimWebhookError unless the request comes from the provider (token, sender, signature). */
  verify(request: EsimWebhookRequest): void | Promise<void>;
  /** The notifications of a verified body; throws EsimWebhookError `invalid` for one it cannot read. */
  parse(body: unknown): EsimNotification[];
}

export interface EsimProvider {
  readonly name: string;
  /** Absent: the provider sends no notifications (usage is polled). */
  readonly webhook?: EsimProviderWebhook;
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
  /**
   * Cancels a never-installed, unused profile (the provider refunds us). A profile that cannot be
   * cancelled (installed, used, expired) throws EsimProviderError `not_cancellable`; one that is
   * already cancelled may resolve or throw `not_cancellable` (the domain then queries it).
   */
  cancelProfile(providerRef: string): Promise<void>;
}
