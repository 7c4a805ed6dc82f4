import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config/index.js';
import type { OperatorIdentity } from '../../domain/operators/operator-sessions.js';
import { operatorCan } from '../../domain/operators/roles.js';

/** The console's own cookie: never the customer's `svc_session` (issue 33 O1). */
export const OPERATOR_COOKIE = 'svc_operator';

/** `ADMIN_TOKEN` acts as an Owner that is nobody in particular; audited as `token`. */
export const TOKEN_OPERATOR: OperatorIdentity = Object.freeze({
  id: 'token',
  email: '',
  name: 'Admin token',
  role: 'owner',
  sessionId: '',
});

const cookieOptions = (config: Config) => ({
  httpOnly: true,
  // Strict: the console is never reached from another site with its session attached.
  sameSite: 'strict' as const,
  secure: config.publicBaseUrl.startsWith('https:'),
  path: '/',
});

/** A session cookie (no Expires): the server ends it (12 idle hours, 24 after sign-in), the browser at exit. */
export function setOperatorCookie(reply: FastifyReply, config: Config, token: string): void {
  reply.setCookie(OPERATOR_COOKIE, token, cookieOptions(config));
}

export function clearOperatorCookie(reply: FastifyReply, config: Config): void {
  reply.clearCookie(OPERATOR_COOKIE, cookieOptions(config));
}

/**
 * Whether the caller may read credentials (Owners and the admin token): install codes and links
 * of eSIMs, and the links and codes in mail bodies. "Nobody but Owners sees secrets" (issue 33).
 */
export function revealsSecrets(request: FastifyRequest): boolean {
  return request.operator ? operatorCan(request.operator.role, 'secrets.read') : false;
}
