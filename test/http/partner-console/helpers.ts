import { membersRepository } from '../../../src/domain/partners/members.repository.js';
import type { PartnerRole } from '../../../src/domain/partners/roles.js';
import type { TestApp } from '../../helpers/app.js';
import { createUser } from '../../helpers/factories.js';

export const CONSOLE_ROOT = '/api/v1/partners';

/** Makes `accountId` a member of `partnerId` with `role` (what an accepted invitation does). */
export async function addMember(t: TestApp, partnerId: string, accountId: string, role: PartnerRole) {
  await membersRepository.upsert(t.container.db, {
    partnerId,
    accountId,
    role,
    now: t.container.clock.now(),
  });
}

/** A partner (funded, with a live key) and one signed-in member per role, for role-matrix tests. */
export async function partnerTeam(t: TestApp, balanceCents = 50_000) {
  const owner = await createUser(t.container, { balanceCents });
  const { key } = await t.container.apiKeys.generate(owner.id);
  const member = async (role: PartnerRole) => {
    const user = await createUser(t.container);
    await addMember(t, owner.id, user.id, role);
    return user;
  };
  return {
    owner,
    key,
    admin: await member('admin'),
    developer: await member('developer'),
    finance: await member('finance'),
    viewer: await member('viewer'),
    stranger: await createUser(t.container),
    /** `/api/v1/partners/<partnerId><path>` */
    url: (path = '') => `${CONSOLE_ROOT}/${owner.id}${path}`,
  };
}
