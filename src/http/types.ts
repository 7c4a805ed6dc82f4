import type { Container } from '../container.js';
import type { Account } from '../domain/sessions/sessions.service.js';

export interface MobileAuth {
  account: Account;
  sessionId: string;
  via: 'bearer' | 'cookie';
}

declare module 'fastify' {
  interface FastifyInstance {
    container: Container;
  }
  interface FastifyRequest {
    /** Set by the Mobile surface's auth hook: null when the request carries no valid session. */
    auth: MobileAuth | null;
    /** Set by the Partner surface's key hook. */
    partner: Account | null;
  }
  interface FastifyContextConfig {
    /** Mobile routes: 'required' (default) answers 401 without a session; 'optional' and 'none' do not. */
    auth?: 'required' | 'optional' | 'none';
  }
}
