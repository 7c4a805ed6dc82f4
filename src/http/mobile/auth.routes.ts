import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../domain/accounts/passwords.js';
import { MINUTE } from '../../lib/clock.js';
import { clearSessionCookie, setSessionCookie } from '../shared/auth.js';
import { preferredLang } from '../shared/messages.js';
import { createRateLimitGuard } from '../shared/rate-limit.js';
import { mobileErrors, Nullable, SuccessSchema } from '../shared/schemas.js';
import { presentUser, UserSchema } from '../shared/user.js';

const tags = ['Auth'];
const Email = Type.String({ maxLength: 320, description: 'Trimmed and lower-cased before use' });
const NewPassword = Type.String({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH });
const Name = Type.String({ minLength: 1, maxLength: 100, description: 'Trimmed; 1 to 100 characters' });
const Locale = Type.String({ pattern: '^[A-Za-z]{2}$', description: '2-letter language code' });
const SessionResponse = Type.Object({ success: Type.Literal(true), user: UserSchema, token: Type.String() });

function bodyEmail(request: FastifyRequest): string | undefined {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? email.trim().toLowerCase() : undefined;
}

/** POST /auth/register … /auth/change-password (specification §4.1, §5). */
export async function authRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { accounts, config } = app.container;
  const perMinute = config.rateLimits.authPerMinute;
  const bruteForceGuard = (name: string) =>
    createRateLimitGuard(app, [
      { name: `${name}:ip`, max: perMinute, windowMs: MINUTE, key: (request) => request.ip },
      { name: `${name}:email`, max: perMinute, windowMs: MINUTE, key: bodyEmail },
    ]);
  const loginGuard = await bruteForceGuard('login');
  const forgotGuard = await bruteForceGuard('forgot');

  r.post(
    '/auth/register',
    {
      config: { auth: 'none' },
      schema: {
        tags,
        summary: 'Create an account',
        description:
          'Creates an ACTIVE account and a session. The token is returned and also set as a cookie.',
        body: Type.Object({ firstName: Name, lastName: Name, email: Email, password: NewPassword }),
        response: { 200: SessionResponse, ...mobileErrors(409) },
      },
    },
    async (request, reply) => {
      const locale = request.headers['accept-language']
        ? preferredLang(request.headers['accept-language'])
        : undefined;
      const { view, session } = await accounts.register({ ...request.body, ...(locale ? { locale } : {}) });
      setSessionCookie(reply, config, session.token, session.expiresAt);
      return { success: true as const, user: presentUser(view, config.publicBaseUrl), token: session.token };
    },
  );

  r.post(
    '/auth/login',
    {
      config: { auth: 'none' },
      preHandler: loginGuard,
      schema: {
        tags,
        summary: 'Log in',
        description: `401 for an unknown address or wrong password (same message), 403 for a suspended or banned account. Rate limited per address and per IP (${perMinute}/min).`,
        body: Type.Object({
          email: Email,
          password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH }),
        }),
        response: { 200: SessionResponse, ...mobileErrors(401, 403, 429) },
      },
    },
    async (request, reply) => {
      const { view, session } = await accounts.login(request.body.email, request.body.password);
      setSessionCookie(reply, config, session.token, session.expiresAt);
      return { success: true as const, user: presentUser(view, config.publicBaseUrl), token: session.token };
    },
  );

  r.post(
    '/auth/logout',
    {
      schema: {
        tags,
        summary: 'Log out',
        description: 'Deletes the current session server-side and clears the cookie.',
        response: { 200: SuccessSchema, ...mobileErrors(401, 403) },
      },
    },
    async (request, reply) => {
      await accounts.logout(request.auth!.sessionId);
      clearSessionCookie(reply, config);
      return { success: true as const };
    },
  );

  r.get(
    '/auth/me',
    {
      config: { auth: 'optional' },
      schema: {
        tags,
        summary: 'The logged-in user',
        description: 'Never an error: without a valid session the answer is { user: null }.',
        response: { 200: Type.Object({ user: Nullable(UserSchema) }) },
      },
    },
    async (request) => {
      if (!request.auth) return { user: null };
      return { user: presentUser(await accounts.view(request.auth.account), config.publicBaseUrl) };
    },
  );

  r.post(
    '/auth/forgot-password',
    {
      config: { auth: 'none' },
      preHandler: forgotGuard,
      schema: {
        tags,
        summary: 'Send a password reset message',
        description:
          'Always { success: true }, whether or not the address exists. The message (tr or en: `locale`, else the account locale) links to PUBLIC_BASE_URL/reset-password?token=… and is valid 1 hour.',
        body: Type.Object({ email: Email, locale: Type.Optional(Locale) }),
        response: { 200: SuccessSchema, ...mobileErrors(429) },
      },
    },
    async (request) => {
      await accounts.forgotPassword(request.body.email, request.body.locale);
      return { success: true as const };
    },
  );

  r.get(
    '/auth/reset-password',
    {
      config: { auth: 'none' },
      schema: {
        tags,
        summary: 'Check a reset token',
        querystring: Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) }),
        response: { 200: Type.Object({ valid: Type.Boolean() }), ...mobileErrors() },
      },
    },
    async (request) => ({ valid: await accounts.isResetTokenValid(request.query.token) }),
  );

  r.post(
    '/auth/reset-password',
    {
      config: { auth: 'none' },
      schema: {
        tags,
        summary: 'Set a new password with a reset token',
        description:
          'The token works once. Every session of the account ends. 400 INVALID_TOKEN when used or expired.',
        body: Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }), newPassword: NewPassword }),
        response: { 200: SuccessSchema, ...mobileErrors() },
      },
    },
    async (request) => {
      await accounts.resetPassword(request.body.token, request.body.newPassword);
      return { success: true as const };
    },
  );

  r.post(
    '/auth/change-password',
    {
      schema: {
        tags,
        summary: 'Change the password',
        description:
          'currentPassword is required unless the account has no password. Every other session of the account ends; this one stays.',
        body: Type.Object({
          currentPassword: Type.Optional(Type.String({ maxLength: PASSWORD_MAX_LENGTH })),
          newPassword: NewPassword,
        }),
        response: { 200: SuccessSchema, ...mobileErrors(401, 403) },
      },
    },
    async (request) => {
      const { account, sessionId } = request.auth!;
      await accounts.changePassword(
        { accountId: account.id, sessionId },
        request.body.currentPassword,
        request.body.newPassword,
      );
      return { success: true as const };
    },
  );
}
