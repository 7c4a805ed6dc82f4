import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../domain/accounts/passwords.js';
import { isAppError } from '../../domain/errors.js';
import { HOUR, MINUTE } from '../../lib/clock.js';
import { createFailureCounter, tooManyFailures } from '../shared/failure-counter.js';
import { clearSessionCookie, setSessionCookie } from '../shared/auth.js';
import { preferredLang } from '../shared/messages.js';
import { createRateLimitGuard } from '../shared/rate-limit.js';
import { mobileErrors, Nullable, SuccessSchema } from '../shared/schemas.js';
import { presentUser, UserSchema } from '../shared/user.js';

const Email = Type.String({ maxLength: 320, description: 'Trimmed and lower-cased before use' });
const NewPassword = Type.String({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH });
const Name = Type.String({ minLength: 1, maxLength: 100, description: 'Trimmed; 1 to 100 characters' });
const Locale = Type.String({ pattern: '^[A-Za-z]{2}$', description: '2-letter language code' });
/** Every route that hashes or checks a password shares the argon2 queue (issue 28 H2). */
const HASH_NOTE =
  'Password hashing is queued per client address: past its share of the queue 429 RATE_LIMITED, when the whole queue is full 503 SERVICE_UNAVAILABLE, both with Retry-After.';
const SessionResponse = Type.Object({ success: Type.Literal(true), user: UserSchema, token: Type.String() });

function bodyEmail(request: FastifyRequest): string | undefined {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? email.trim().toLowerCase() : undefined;
}

/** POST /auth/register … /auth/change-password (specification §4.1, §5). */
export async function authRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { accounts, config } = app.container;
  const { authPerMinute: perMinute, registerPerHour, accountFailuresPerHour } = config.rateLimits;
  const ipOf = (request: FastifyRequest) => request.ip;
  // Login: per client address, and per address+account. Never per account alone: failures from
  // one address must not lock the owner out from another (see docs/security.md).
  const loginGuard = await createRateLimitGuard(app, [
    { name: 'login:ip', max: perMinute, windowMs: MINUTE, key: ipOf },
    {
      name: 'login:ip-email',
      max: perMinute,
      windowMs: MINUTE,
      key: (request) => {
        const email = bodyEmail(request);
        return email === undefined ? undefined : `${request.ip}|${email}`;
      },
    },
  ]);
  const forgotGuard = await createRateLimitGuard(app, [
    { name: 'forgot:ip', max: perMinute, windowMs: MINUTE, key: ipOf },
    { name: 'forgot:email', max: perMinute, windowMs: MINUTE, key: bodyEmail },
  ]);
  // Reset tokens are 256-bit random, so the limit is not about guessing: it bounds the work a
  // client can ask for (the token lookup, then argon2 for a valid one), like forgot-password.
  const resetGuard = await createRateLimitGuard(app, [
    { name: 'reset:ip', max: perMinute, windowMs: MINUTE, key: ipOf },
  ]);
  const registerGuard = await createRateLimitGuard(app, [
    { name: 'register:ip', max: registerPerHour, windowMs: HOUR, key: ipOf },
  ]);
  // The slower per-account limit counts wrong passwords only. Past it, an address that sent a
  // wrong password for the account in the window is refused before its password is checked; a
  // clean address is still checked, so the owner's right password keeps working.
  const accountFailures = createFailureCounter(app, 'login-account', HOUR);
  const addressFailures = createFailureCounter(app, 'login-account-ip', HOUR);
  const changePasswordFailures = createFailureCounter(app, 'change-password', MINUTE);

  r.post(
    '/auth/register',
    {
      config: { auth: 'none' },
      preHandler: registerGuard,
      schema: {
        operationId: 'register',
        tags: ['Auth'],
        summary: 'Create an account',
        description: `Creates an ACTIVE account and a session. The token is returned and also set as a cookie. Rate limited per client address (${registerPerHour}/hour). ${HASH_NOTE}`,
        body: Type.Object({ firstName: Name, lastName: Name, email: Email, password: NewPassword }),
        response: { 200: SessionResponse, ...mobileErrors(409, 429, 503) },
      },
    },
    async (request, reply) => {
      const locale = request.headers['accept-language']
        ? preferredLang(request.headers['accept-language'])
        : undefined;
      const { view, session } = await accounts.register(
        { ...request.body, ...(locale ? { locale } : {}) },
        request.ip,
      );
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
        operationId: 'login',
        tags: ['Auth'],
        summary: 'Log in',
        description: `401 for an unknown address or wrong password (same message), 403 for a suspended or banned account. Rate limited per client IP and per IP+address (${perMinute}/min); after ${accountFailuresPerHour} wrong passwords for one address in an hour, IPs that sent one are refused (429) while other IPs are still checked. ${HASH_NOTE}`,
        body: Type.Object({
          email: Email,
          password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH }),
        }),
        response: { 200: SessionResponse, ...mobileErrors(401, 403, 429, 503) },
      },
    },
    async (request, reply) => {
      const email = request.body.email.trim().toLowerCase();
      const addressKey = `${email}|${request.ip}`;
      const failures = await accountFailures.count(email);
      if (failures.count >= accountFailuresPerHour && (await addressFailures.count(addressKey)).count > 0) {
        throw tooManyFailures(failures.retryAfterSeconds);
      }
      let issued;
      try {
        issued = await accounts.login(request.body.email, request.body.password, request.ip);
      } catch (err) {
        if (isAppError(err) && err.code === 'INVALID_CREDENTIALS') {
          await Promise.all([accountFailures.hit(email), addressFailures.hit(addressKey)]);
        }
        throw err;
      }
      const { view, session } = issued;
      setSessionCookie(reply, config, session.token, session.expiresAt);
      return { success: true as const, user: presentUser(view, config.publicBaseUrl), token: session.token };
    },
  );

  r.post(
    '/auth/logout',
    {
      schema: {
        operationId: 'logout',
        tags: ['Auth'],
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
        operationId: 'getMe',
        tags: ['Auth'],
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
        operationId: 'forgotPassword',
        tags: ['Auth'],
        summary: 'Send a password reset message',
        description:
          'Always { success: true }, whether or not the address exists. The message (en, tr, de, fr or es: `locale`, else the account locale, else English) links to PUBLIC_BASE_URL/reset-password?token=… and is valid 1 hour.',
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
        operationId: 'checkResetToken',
        tags: ['Auth'],
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
      preHandler: resetGuard,
      schema: {
        operationId: 'resetPassword',
        tags: ['Auth'],
        summary: 'Set a new password with a reset token',
        description: `The token works once. Every session of the account ends and its Partner API key is revoked. 400 INVALID_TOKEN when unknown, used or expired (checked before the new password is hashed). Rate limited per client address (${perMinute}/min). ${HASH_NOTE}`,
        body: Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }), newPassword: NewPassword }),
        response: { 200: SuccessSchema, ...mobileErrors(429, 503) },
      },
    },
    async (request) => {
      await accounts.resetPassword(request.body.token, request.body.newPassword, request.ip);
      return { success: true as const };
    },
  );

  r.post(
    '/auth/change-password',
    {
      schema: {
        operationId: 'changePassword',
        tags: ['Auth'],
        summary: 'Change the password',
        description: `currentPassword is required unless the account has no password. Every other session of the account ends and the Partner API key is revoked (generate a new one); this session stays. After ${perMinute} wrong currentPassword attempts in a minute: 429 RATE_LIMITED with Retry-After. ${HASH_NOTE}`,
        body: Type.Object({
          currentPassword: Type.Optional(Type.String({ maxLength: PASSWORD_MAX_LENGTH })),
          newPassword: NewPassword,
        }),
        response: { 200: SuccessSchema, ...mobileErrors(401, 403, 429, 503) },
      },
    },
    async (request) => {
      const { account, sessionId } = request.auth!;
      const failures = await changePasswordFailures.count(account.id);
      if (failures.count >= perMinute) throw tooManyFailures(failures.retryAfterSeconds);
      try {
        await accounts.changePassword(
          { accountId: account.id, sessionId },
          request.body.currentPassword,
          request.body.newPassword,
          request.ip,
        );
      } catch (err) {
        if (isAppError(err) && err.code === 'CURRENT_PASSWORD_INCORRECT')
          await changePasswordFailures.hit(account.id);
        throw err;
      }
      return { success: true as const };
    },
  );
}
