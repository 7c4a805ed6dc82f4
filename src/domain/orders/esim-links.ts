/** Links to an issued eSIM, as the Mobile API, the Partner API, partner events and receipts give them. */

/** The QR code image of the activation code, served by the Mobile API by its QR token. */
export function qrCodeUrl(publicBaseUrl: string, qrToken: string, format: 'png' | 'svg' = 'png'): string {
  return `${publicBaseUrl}/api/v1/esims/${qrToken}/qr.${format}`;
}

/** Apple's one-tap eSIM install link (iOS 17.4+), carrying the LPA activation string. */
export function iosInstallUrl(lpa: string): string {
  return `https://esimsetup.apple.com/esim_qrcode_provisioning?carddata=${lpa}`;
}
