import { sandboxPaymentPages } from './hosted-page.js';

/** Hosted page of the sandbox card provider: /sandbox/card/:sessionId. */
export const sandboxCardRoutes = sandboxPaymentPages('card');
