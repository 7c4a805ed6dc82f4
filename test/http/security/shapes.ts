import { expect } from 'vitest';

/** The Mobile/Web surface's error body: `{ error, code }`. */
export const mobileShape = (body: unknown, code: string) =>
  expect(body).toEqual({ error: expect.any(String), code });

/** The Partner and operator surfaces' error body: `{ error: { code, message } }`. */
export const partnerShape = (body: unknown, code: string) =>
  expect(body).toMatchObject({ error: { code, message: expect.any(String) } });
