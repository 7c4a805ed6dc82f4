/** Shared by playwright.config.ts and the tests. */
export const port = Number(process.env.E2E_PORT ?? 3210);
export const baseURL = `http://127.0.0.1:${port}`;
export const ADMIN_TOKEN = 'e2e-admin-token-0123456789';
