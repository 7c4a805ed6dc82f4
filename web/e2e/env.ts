/** Shared by playwright.config.ts and the tests. */
export const port = Number(process.env.E2E_PORT ?? 3210);
export const baseURL = `http://127.0.0.1:${port}`;
export const ADMIN_TOKEN = 'e2e-admin-token-0123456789';
/** The seller the legal pages and the footer name (COMPANY_NAME, COMPANY_ADDRESS, SUPPORT_EMAIL). */
export const COMPANY = {
  name: 'Roam Travel Data Ltd',
  address: 'Caferağa Mah. Moda Cad. 12, 34710 Kadıköy, İstanbul, Türkiye',
  supportEmail: 'help@roam-esim.example',
};
