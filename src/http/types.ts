import type { Container } from '../container.js';
import type { KeyHolder } from '../domain/accounts/api-keys.js';
import type { PartnerAccess } from '../domain/partners/partners.service.js';
import type { PartnerPermission } from '../domain/partners/roles.js';
import type { OperatorIdentity } from '../domain/operators/operator-sessions.js';
import type { OperatorPermission } from '../domain/operators/roles.js';
import type { Account } from '../domain/sessions/sessions.service.js';

export interface MobileAuth {
  account: Account;
  sessionId: string;
  via: 'bearer' | 'cookie';
}

declare module 'fastify' {
  interface FastifyInstance {
    container: Container;
    /**
     * Compiles the route schemas no request has used yet (./shared/lazy-schemas.ts): called after
     * listening, and by the test that every schema compiles. Resolves with how many it compiled.
     */
    compileSchemas: () => Promise<number>;
  }
  interface FastifyRequest {
    /** Set by the Mobile surface's auth hook: null when the request carries no valid session. */
    auth: MobileAuth | null;
    /** Set by the Partner surface's key hook: the key holder's account id. */
    partner: KeyHolder | null;
    /** Partner surface: false when the request's key is a test-mode key (svc_test_sk_…). */
    livemode: boolean;
    /**
     * Routes under /api/v1/partners/{partnerId}/ (the partner dashboard): the signed-in person's
     * role on that partner; `livemode` then follows the `mode` query parameter (default live).
     */
    partnerAccess: PartnerAccess | null;
    /** Operator API: the console operator of the session cookie, or TOKEN_OPERATOR for ADMIN_TOKEN. */
    operator: OperatorIdentity | null;
  }
  interface FastifyContextConfig {
    /** Mobile routes: 'required' (default) answers 401 without a session; 'optional' and 'none' do not. */
    auth?: 'required' | 'optional' | 'none';
    /**
     * Top-level body fields that are free text: tab, line feed and carriage return are allowed
     * there; every other string in a body (and every path and query) refuses all control
     * characters (src/http/shared/security.ts).
     */
    freeText?: string[];
    /**
     * Partner routes that read only the public catalogue: the key check may be reused for up to
     * a second (`ApiKeyService.authenticateForCatalog`) instead of a database read per request.
     */
    catalogRead?: boolean;
    /** Routes under /api/v1/partners/{partnerId}/: what the member's role must allow (required there). */
    permission?: PartnerPermission;
    /**
     * Operator API routes (required there): what the operator's role must allow; `signed-in` for
     * any operator, `public` for sign-in and enrolment (src/http/admin/index.ts).
     */
    operatorPermission?: OperatorPermission | 'signed-in' | 'public';
  }
}
