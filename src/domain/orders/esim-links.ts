import { randomToken } from '../../lib/crypto.js';

/** Links to an issued eSIM, as the Mobile API, the Partner API, partner events and receipts give them. */

/** The QR code image of the activation code, served by the Mobile API by its QR token. */
export function qrCodeUrl(publicBaseUrl: string, qrToken: string, format: 'png' | 'svg' = 'png'): string {
  return `${publicBaseUrl}/api/v1/esims/${qrToken}/qr.${format}`;
}

/** Apple's one-tap eSIM install link (iOS 17.4+), carrying the LPA activation string. */
export function iosInstallUrl(lpa: string): string {
  return `https://esimsetup.apple.com/esim_qrcode_provisioning?carddata=${lpa}`;
}

/**
 * The hosted install page of an eSIM (issue 30 T2): public, so anyone holding the link (the
 * buyer, or whoever a partner shares it with) can install the eSIM and follow its usage.
 */
export function installUrl(publicBaseUrl: string, installToken: string): string {
  return `${publicBaseUrl}/install/${installToken}`;
}

/** A new install page token: 32 random bytes (256 bits) as base64url, 43 characters. */
export function newInstallToken(): string {
  return randomToken(32);
}
