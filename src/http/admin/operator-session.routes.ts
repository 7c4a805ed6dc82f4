import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../domain/accounts/passwords.js';
import { isAppError } from '../../domain/errors.js';
import type { OperatorIdentity } from '../../domain/operators/operator-sessions.js';
import { OPERATOR_PERMISSIONS, OPERATOR_ROLES, operatorPermissionsOf } from '../../domain/operators/roles.js';
import { HOUR, MINUTE } from '../../lib/clock.js';
import { createFailureCounter, tooManyFailures } from '../shared/failure-counter.js';
import { createRateLimitGuard } from '../shared/rate-limit.js';
import { adminErrors, IsoDate } from '../shared/schemas.js';
import { clearOperatorCookie, setOperatorCookie } from './operator-auth.js';

export const OperatorRoleSchema = Type.Union(
  OPERATOR_ROLES.map((r) => Type.Literal(r)),
  {
    title: 'OperatorRole',
    description: 'owner, support, finance, catalog or readonly (docs/operations.md "Roles")',
  },
);

export const OperatorPermissionSchema = Type.Union(
  OPERATOR_PERMISSIONS.map((p) => Type.Literal(p)),
  { title: 'OperatorPermission' },
);

export const MeSchema = Type.Object(
  {
    id: Type.String({ description: '`token` for the admin token' }),
    email: Type.String(),
    name: Type.String(),
    role: OperatorRoleSchema,
    permissions: Type.Array(OperatorPermissionSchema, { description: 'What this role may do' }),
  },
  { title: 'OperatorMe' },
);

export function meOf({ id, email, name, role }: Pick<OperatorIdentity, 'id' | 'email' | 'name' | 'role'>) {
  return { id, email, name, role, permissions: operatorPermissionsOf(role) };
}

const TokenParams = Type.Object({
  token: Type.String({
    minLength: 20,
    maxLength: 200,
    description: 'The token of the link `/admin/enrol#<token>`',
  }),
});
const Code = Type.String({
  minLength: 6,
  maxLength: 20,
  description: 'The 6-digit code of the authenticator app, or a recovery code (`xxxx-xxxx`, each works once)',
});
const HASH_NOTE =
  'Password hashing is queued per client address: past its share 429 RATE_LIMITED, when the whole queue is full 503 SERVICE_UNAVAILABLE, both with Retry-After.';

const clientOf = (request: FastifyRequest) => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'],
});

function bodyEmail(request: FastifyRequest): string | undefined {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? email.trim().toLowerCase() : undefined;
}

/** The console's own session: sign-in, who am I, sign-out, and enrolment through a one-time link. */
export async function operatorSessionRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { config, operatorSessions, operatorSignIn } = app.container;
  const { authPerMinute: perMinute, accountFailuresPerHour } = config.rateLimits;
  // As the customers' login (src/http/mobile/auth.routes.ts, docs/security.md): per client
  // address and per address+e-mail; never per e-mail alone, so failures from one address do not
  // lock the operator out from another.
  const signInGuard = await createRateLimitGuard(app, [
    { name: 'operator-sign-in:ip', max: perMinute, windowMs: MINUTE, key: (request) => request.ip },
    {
      name: 'operator-sign-in:ip-email',
      max: perMinute,
      windowMs: MINUTE,
      key: (request) => {
        const email = bodyEmail(request);
        return email === undefined ? undefined : `${request.ip}|${email}`;
      },
    },
  ]);
  // Enrolment tokens are 256-bit random, so guessing is hopeless; still, an address that keeps
  // sending unknown links is refused for a while (failures only: an Owner's fixture or a
  // person enrolling is never slowed down). Hashing work is bounded by the argon2 gate.
  const enrolFailures = createFailureCounter(app, 'operator-enrol-ip', MINUTE);
  const enrolGuard = async (request: FastifyRequest) => {
    const failures = await enrolFailures.count(request.ip);
    if (failures.count >= perMinute) throw tooManyFailures(failures.retryAfterSeconds);
  };
  const countUnknownLink = async (request: FastifyRequest, err: unknown) => {
    if (isAppError(err) && err.code === 'NOT_FOUND') await enrolFailures.hit(request.ip);
    throw err;
  };
  const accountFailures = createFailureCounter(app, 'operator-sign-in', HOUR);
  const addressFailures = createFailureCounter(app, 'operator-sign-in-ip', HOUR);

  r.post(
    '/operator/session',
    {
      config: { operatorPermission: 'public' },
      preHandler: signInGuard,
      schema: {
        operationId: 'signInOperator',
        tags: ['Operators'],
        summary: 'Sign in to the console',
        description: `E-mail, password and a code (authenticator app or a recovery code). Sets the \`svc_operator\` cookie (SameSite=Strict; the session ends after 12 idle hours, and 24 hours after sign-in). 401 INVALID_CREDENTIALS with one message for any wrong part, and for a disabled or not yet enrolled operator. Throttled like the customers' login: per client address and per address+e-mail (${perMinute}/min); after ${accountFailuresPerHour} failures for one e-mail in an hour, addresses that sent one are refused (429) while others are still checked. ${HASH_NOTE}`,
        body: Type.Object({
          email: Type.String({ minLength: 3, maxLength: 320, description: 'Trimmed and lower-cased' }),
          password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH }),
          code: Code,
        }),
        response: { 200: Type.Object({ operator: MeSchema }), ...adminErrors(401, 429, 503) },
      },
    },
    async (request, reply) => {
      const email = request.body.email.trim().toLowerCase();
      const addressKey = `${email}|${request.ip}`;
      const failures = await accountFailures.count(email);
      if (failures.count >= accountFailuresPerHour && (await addressFailures.count(addressKey)).count > 0)
        throw tooManyFailures(failures.retryAfterSeconds);
      let signedIn;
      try {
        signedIn = await operatorSignIn.signIn(request.body, clientOf(request));
      } catch (err) {
        if (isAppError(err) && err.code === 'INVALID_CREDENTIALS')
          await Promise.all([accountFailures.hit(email), addressFailures.hit(addressKey)]);
        throw err;
      }
      setOperatorCookie(reply, config, signedIn.token);
      return { operator: meOf(signedIn.identity) };
    },
  );

  r.get(
    '/operator/enrolment/:token',
    {
      config: { operatorPermission: 'public' },
      preHandler: enrolGuard,
      schema: {
        operationId: 'getOperatorEnrolment',
        tags: ['Operators'],
        summary: 'An enrolment link: who it is for, and the TOTP secret to enrol',
        description: `What the enrolment page shows: the operator, and the authenticator secret as text, as an \`otpauth://\` URI and as a QR code (SVG). 404 NOT_FOUND when the link is unknown, used, expired (24 h) or replaced by a newer one, or the operator is disabled. After ${perMinute} such answers in a minute the client address gets 429.`,
        params: TokenParams,
        response: {
          200: Type.Object({
            email: Type.String(),
            name: Type.String(),
            role: OperatorRoleSchema,
            expiresAt: IsoDate,
            totpSecret: Type.String({ description: 'Base32, for typing into the app by hand' }),
            otpauthUri: Type.String({ description: 'otpauth://totp/… (SHA1, 6 digits, 30 s)' }),
            qrSvg: Type.String({ description: 'The URI as a QR code, an SVG document' }),
          }),
          ...adminErrors(404, 429),
        },
      },
    },
    async (request, reply) => {
      const preview = await operatorSignIn
        .previewEnrolment(request.params.token)
        .catch((err: unknown) => countUnknownLink(request, err));
      // The secret is in this answer: no cache keeps it.
      reply.header('cache-control', 'no-store');
      return { ...preview, expiresAt: preview.expiresAt.toISOString() };
    },
  );

  r.post(
    '/operator/enrolment/:token',
    {
      config: { operatorPermission: 'public' },
      preHandler: enrolGuard,
      schema: {
        operationId: 'completeOperatorEnrolment',
        tags: ['Operators'],
        summary: 'Enrol: set the password and confirm the authenticator',
        description: `Sets the password (${PASSWORD_MIN_LENGTH}–${PASSWORD_MAX_LENGTH} characters) and the link's TOTP secret (\`code\`: the app's current 6-digit code proves it holds it; 400 VALIDATION_ERROR when it does not match), replaces the recovery codes, ends the operator's older console sessions and signs in (Set-Cookie). The 10 recovery codes are in this answer only. The link works once. ${HASH_NOTE}`,
        params: TokenParams,
        body: Type.Object({
          password: Type.String({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH }),
          code: Type.String({
            pattern: '^\\s*[0-9]{6}\\s*$',
            description: 'The 6-digit code the app shows now',
          }),
          name: Type.Optional(
            Type.String({ maxLength: 100, description: 'How the console names the operator' }),
          ),
        }),
        response: {
          200: Type.Object({
            operator: MeSchema,
            recoveryCodes: Type.Array(Type.String(), {
              description: 'Shown once: each signs in once in place of a code (lost phone)',
            }),
          }),
          ...adminErrors(404, 429, 503),
        },
      },
    },
    async (request, reply) => {
      const done = await operatorSignIn
        .completeEnrolment(request.params.token, request.body, clientOf(request))
        .catch((err: unknown) => countUnknownLink(request, err));
      reply.header('cache-control', 'no-store');
      setOperatorCookie(reply, config, done.token);
      return { operator: meOf(done.identity), recoveryCodes: done.recoveryCodes };
    },
  );

  r.get(
    '/operator/me',
    {
      config: { operatorPermission: 'signed-in' },
      schema: {
        operationId: 'getOperatorMe',
        tags: ['Operators'],
        summary: 'The signed-in operator',
        description:
          'Who this session (or the admin token) is, with the role and what it permits. 401 when signed out.',
        response: { 200: Type.Object({ operator: MeSchema }), ...adminErrors() },
      },
    },
    async (request) => ({ operator: meOf(request.operator!) }),
  );

  r.delete(
    '/operator/session',
    {
      config: { operatorPermission: 'public' },
      schema: {
        operationId: 'signOutOperator',
        tags: ['Operators'],
        summary: 'Sign out of the console',
        description:
          'Ends this console session and clears its cookie. Answers 204 even when already signed out.',
        response: { 204: Type.Null(), ...adminErrors() },
      },
    },
    async (request, reply) => {
      const operator = request.operator;
      if (operator?.sessionId) await operatorSessions.end(operator.sessionId);
      clearOperatorCookie(reply, config);
      return reply.code(204).send(null);
    },
  );
}
