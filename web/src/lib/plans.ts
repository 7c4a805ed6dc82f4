/**
 * The destination a plan id belongs to, when the id shows it (sandbox and eSIM Access package
 * codes carry the ISO code: plan_sbx-tr-1gb-7d → TR); null otherwise. Used only for the
 * "top up this eSIM" link; the storefront search is the fallback.
 */
export function destinationFromPlanId(planId: string): string | null {
  const match = /^plan_[a-z0-9]+-([a-z]{2}|[a-z_]{3,20})-\d/i.exec(planId);
  return match ? match[1]!.toUpperCase() : null;
}

/** A readable plan name from its id when nothing better is known: "TR · 1GB · 7D". */
export function planLabel(planId: string): string {
  const parts = planId.replace(/^plan_/, '').split('-');
  if (parts.length >= 3 && /^[a-z]+$/i.test(parts[0]!)) return parts.slice(1).join(' · ').toUpperCase();
  return planId;
}

/** The storefront page with the top-up plans for this eSIM (`?iccid=`), or the storefront. */
export function topUpPath(planId: string, iccid: string): string {
  const destination = destinationFromPlanId(planId);
  return destination ? `/destinations/${destination}?iccid=${iccid}` : '/?filter=all';
}
