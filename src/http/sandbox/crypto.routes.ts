import { sandboxPaymentPages } from './hosted-page.js';

/** Hosted page of the sandbox crypto provider: /sandbox/crypto/:invoiceId. */
export const sandboxCryptoRoutes = sandboxPaymentPages('crypto');
