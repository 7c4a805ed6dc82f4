import { operators } from '../../src/db/schema/index.js';
import type { OperatorRole } from '../../src/domain/operators/roles.js';
import { newId } from '../../src/lib/ids.js';
import { BASE_URL } from './config.js';
import type { TestApp } from './app.js';

export interface SignedInOperator {
  id: string;
  email: string;
  role: OperatorRole;
  /** Headers of a console request: the session cookie, and the console's own origin. */
  headers: Record<string, string>;
}

/**
 * An ACTIVE operator with a console session, written straight to the tables: for tests of what a
 * role may do. The sign-in itself (password + TOTP) is tested with the real flow.
 */
export async function signedInOperator(
  t: TestApp,
  role: OperatorRole,
  email?: string,
): Promise<SignedInOperator> {
  const id = newId('opr');
  const address = email ?? `${role}-${id.slice(4, 12).toLowerCase()}@ops.example`;
  await t.database.db.insert(operators).values({
    id,
    email: address,
    name: `${role} operator`,
    role,
    status: 'ACTIVE',
    createdBy: 'test',
    createdAt: t.clock.now(),
    enrolledAt: t.clock.now(),
  });
  const { token } = await t.container.operatorSessions.issue(t.database.db, id, {});
  return { id, email: address, role, headers: { cookie: `svc_operator=${token}`, origin: BASE_URL } };
}
