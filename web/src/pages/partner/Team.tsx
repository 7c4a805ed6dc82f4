import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { api, unwrap } from '../../api/client';
import type { PartnerMembership } from '../../api/types';
import { CopyButton } from '../../components/CopyButton';
import { FormError } from '../../components/FormError';
import { RecordTable } from '../../components/RecordTable';
import { useI18n } from '../../i18n';
import { formatDateTime } from '../../lib/format';
import { useMe } from '../../lib/session';
import { usePartnerT, type PartnerConsole } from '../../partner/console';
import { PartnerShell } from '../../partner/PartnerShell';
import '../../partner/team.css';

type Role = PartnerMembership['role'];
const ROLES: Role[] = ['owner', 'admin', 'developer', 'finance', 'viewer'];

/** Members (role select, remove), the invite form, pending invitations (issue 32 C4). */
function TeamPanel({ pc }: { pc: PartnerConsole }) {
  const t = usePartnerT();
  const { language } = useI18n();
  const id = useId();
  const client = useQueryClient();
  const write = pc.can('members.write');
  const me = pc.membership!;
  const myAccountId = useMe().data?.id;
  // Only an Owner makes, changes or removes Owners (the server checks it too).
  const assignable = me.role === 'owner' ? ROLES : ROLES.filter((r) => r !== 'owner');
  const members = useQuery({
    queryKey: [...pc.key, 'members'],
    queryFn: () => unwrap(api.GET('/api/v1/partners/{partnerId}/members', { params: pc.scope })),
  });
  const invitations = useQuery({
    queryKey: [...pc.key, 'invitations'],
    queryFn: () => unwrap(api.GET('/api/v1/partners/{partnerId}/invitations', { params: pc.scope })),
  });
  const refresh = () => client.invalidateQueries({ queryKey: pc.key });
  const path = (accountId: string) => ({ ...pc.scope, path: { ...pc.scope.path, accountId } });
  const changeRole = useMutation({
    mutationFn: (v: { accountId: string; role: Role }) =>
      unwrap(
        api.PATCH('/api/v1/partners/{partnerId}/members/{accountId}', {
          params: path(v.accountId),
          body: { role: v.role },
        }),
      ),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (accountId: string) =>
      unwrap(api.DELETE('/api/v1/partners/{partnerId}/members/{accountId}', { params: path(accountId) })),
    onSettled: refresh,
  });
  const leave = useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/v1/partners/{partnerId}/membership', { params: pc.scope })),
    onSuccess: () => window.location.assign('/partner'),
  });
  const revoke = useMutation({
    mutationFn: (invitationId: string) =>
      unwrap(
        api.DELETE('/api/v1/partners/{partnerId}/invitations/{id}', {
          params: { ...pc.scope, path: { ...pc.scope.path, id: invitationId } },
        }),
      ),
    onSettled: refresh,
  });
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('developer');
  const invite = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/v1/partners/{partnerId}/invitations', {
          params: pc.scope,
          body: { email, role, locale: language },
        }),
      ),
    onSuccess: () => {
      setEmail('');
      void refresh();
    },
  });
  function submit(event: FormEvent) {
    event.preventDefault();
    invite.mutate();
  }
  type Member = NonNullable<typeof members.data>['members'][number];
  const editable = (m: Member) =>
    write && !m.self && m.accountId !== myAccountId && (m.role !== 'owner' || me.role === 'owner');
  type Invitation = NonNullable<typeof invitations.data>['invitations'][number];

  return (
    <>
      <section className="card partner-wrap" aria-labelledby={`${id}-members`}>
        <h2 id={`${id}-members`}>{t('pc.team.members')}</h2>
        <FormError error={members.error ?? changeRole.error ?? remove.error ?? leave.error} />
        <RecordTable<Member>
          caption={t('pc.team.members')}
          rows={members.data?.members ?? []}
          rowKey={(m) => m.accountId}
          testId="member-row"
          columns={[
            {
              header: t('pc.team.name'),
              card: 'title',
              cell: (m) => (
                <>
                  {m.name}
                  {m.self ? <span className="muted"> · {t('pc.team.partnerLogin')}</span> : null}
                </>
              ),
            },
            { header: t('pc.team.email'), cell: (m) => m.email },
            {
              header: t('pc.team.role'),
              card: 'aside',
              cell: (m) =>
                editable(m) ? (
                  <select
                    aria-label={t('pc.team.roleOf', { name: m.name })}
                    value={m.role}
                    disabled={changeRole.isPending}
                    onChange={(e) =>
                      changeRole.mutate({ accountId: m.accountId, role: e.target.value as Role })
                    }
                  >
                    {(m.role === 'owner' ? ROLES : assignable).map((r) => (
                      <option key={r} value={r}>
                        {t(`pc.role.${r}`)}
                      </option>
                    ))}
                  </select>
                ) : (
                  t(`pc.role.${m.role}`)
                ),
            },
            {
              header: t('pc.team.actions'),
              cell: (m) =>
                editable(m) ? (
                  <button
                    type="button"
                    className="button small danger"
                    aria-label={`${t('pc.team.remove')} ${m.name}`}
                    onClick={() => {
                      if (window.confirm(t('pc.team.removeConfirm', { name: m.name })))
                        remove.mutate(m.accountId);
                    }}
                  >
                    {t('pc.team.remove')}
                  </button>
                ) : null,
            },
          ]}
        />
        {!me.self ? (
          <button type="button" className="button" onClick={() => leave.mutate()} disabled={leave.isPending}>
            {t('pc.team.leave')}
          </button>
        ) : null}
      </section>

      {write ? (
        <section className="card" aria-labelledby={`${id}-invite`}>
          <h2 id={`${id}-invite`}>{t('pc.team.invite')}</h2>
          <form onSubmit={submit} className="stack">
            <div className="field">
              <label htmlFor={`${id}-email`}>{t('pc.team.email')}</label>
              <input
                id={`${id}-email`}
                type="email"
                required
                autoComplete="off"
                value={email}
                onChange={(e) => setEmail(e.target.value)}
              />
            </div>
            <fieldset className="field">
              <legend>{t('pc.team.role')}</legend>
              {assignable.map((r) => (
                <label key={r} className="radio">
                  <input
                    type="radio"
                    name={`${id}-role`}
                    value={r}
                    checked={role === r}
                    onChange={() => setRole(r)}
                  />{' '}
                  <strong>{t(`pc.role.${r}`)}</strong> — {t(`pc.team.desc.${r}`)}
                </label>
              ))}
            </fieldset>
            <FormError error={invite.error} />
            <button type="submit" className="button primary" disabled={invite.isPending}>
              {t('pc.team.send')}
            </button>
          </form>
          {invite.data ? (
            <div className="secret-box" role="region" aria-label={t('pc.team.linkTitle')}>
              <p className="warning" role="alert">
                {t('pc.team.linkOnce', { email: invite.data.invitation.email })}
              </p>
              <div className="secret-row">
                <code data-testid="invitation-link">{invite.data.url}</code>
                <CopyButton text={invite.data.url} label={t('pc.team.copyLink')} />
              </div>
            </div>
          ) : null}
        </section>
      ) : null}

      <section className="card partner-wrap" aria-labelledby={`${id}-pending`}>
        <h2 id={`${id}-pending`}>{t('pc.team.pending')}</h2>
        <FormError error={invitations.error ?? revoke.error} />
        {invitations.data && invitations.data.invitations.length === 0 ? (
          <p className="muted">{t('pc.team.noPending')}</p>
        ) : (
          <RecordTable<Invitation>
            caption={t('pc.team.pending')}
            rows={invitations.data?.invitations ?? []}
            rowKey={(i) => i.id}
            testId="invitation-row"
            columns={[
              { header: t('pc.team.email'), card: 'title', cell: (i) => i.email },
              { header: t('pc.team.role'), card: 'aside', cell: (i) => t(`pc.role.${i.role}`) },
              {
                header: t('pc.team.expires'),
                cell: (i) =>
                  i.status === 'expired' ? t('pc.team.expired') : formatDateTime(i.expiresAt, language),
              },
              {
                header: t('pc.team.actions'),
                cell: (i) =>
                  write ? (
                    <button
                      type="button"
                      className="button small"
                      aria-label={t('pc.team.revokeOf', { email: i.email })}
                      onClick={() => revoke.mutate(i.id)}
                    >
                      {t('pc.team.revoke')}
                    </button>
                  ) : null,
              },
            ]}
          />
        )}
      </section>
    </>
  );
}

export default function Team() {
  return (
    <PartnerShell title="pc.tab.team" permission="members.read">
      {(pc) => <TeamPanel key={pc.partnerId} pc={pc} />}
    </PartnerShell>
  );
}
