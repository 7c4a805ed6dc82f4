/**
 * The destination a plan id belongs to, when the id shows it (sandbox and eSIM Access package
 * codes carry the ISO code: plan_sbx-tr-1gb-7d → TR); null otherwise. Used only for the
 * "top up this eSIM" link; the storefront search is the fallback.
 */
export function destinationFromPlanId(planId: string): string | null {
  const match = /^plan_[a-z0-9]+-([a-z]{2}|[a-z_]{3,20})-\d/i.exec(planId);
  return match ? match[1]!.toUpperCase() : null;
}

/** The storefront page with the top-up plans for this eSIM (`?iccid=`), or the storefront. */
export function topUpPath(planId: string, iccid: string): string {
  const destination = destinationFromPlanId(planId);
  return destination ? `/destinations/${destination}?iccid=${iccid}` : '/?filter=all';
}
