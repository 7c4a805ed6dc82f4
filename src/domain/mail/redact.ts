/**
 * What operators without `secrets.read` see of a mail body (issue 33 O1): the service mails
 * credentials (password-reset links and codes, operator enrolment links, a guest's ticket link,
 * partner invitations, eSIM install and QR links), and whoever reads the outbox could use them.
 *
 * The rule is deliberately blunt, so a new mail template cannot slip past it: every run of 20 or
 * more URL-safe characters ([A-Za-z0-9_-]) that looks random is replaced by `[redacted]`, inside
 * a link or not (the reset mail also prints its code on its own line). "Looks random": it has a
 * letter and a digit or a capital; the service's tokens are 32 to 43 base64url characters, which
 * lack both with odds below 1 in 10^11. Also caught: eSIM activation codes (hex). Left alone: the
 * service's own prefixed ids (`ord_…`, `acc_…`: naming an object grants nothing), digits-only
 * runs (ICCIDs), order numbers (shorter) and lower-case words (`esim_qrcode_provisioning`). A long
 * slug with a capital or a digit may be hidden too; that only costs readability.
 */
export const REDACTED = '[redacted]';

const RUN = /[A-Za-z0-9_-]{20,}/g;
/** newId(): a short lower-case prefix, `_`, 20 base62 characters (src/lib/ids.ts). */
const OWN_ID = /^[a-z]{2,4}_[A-Za-z0-9]{20}$/;

function looksSecret(run: string): boolean {
  return !OWN_ID.test(run) && /[A-Za-z]/.test(run) && /[0-9A-Z]/.test(run);
}

/** `text` with every token-like run replaced by `[redacted]`. */
export function redactSecrets(text: string): string {
  return text.replace(RUN, (run) => (looksSecret(run) ? REDACTED : run));
}

/** Whether `redactSecrets` would change `text`. */
export function hasSecrets(text: string): boolean {
  return (text.match(RUN) ?? []).some(looksSecret);
}
