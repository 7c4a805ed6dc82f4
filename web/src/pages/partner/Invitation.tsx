import { useMutation, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import { FormError } from '../../components/FormError';
import { useI18n } from '../../i18n';
import { formatDateTime } from '../../lib/format';
import { useMe } from '../../lib/session';
import { useTitle } from '../../lib/title';
import { usePartnerT } from '../../partner/console';
import type { PartnerMessageKey } from '../../partner/messages/index';
import '../../partner/partner.css';

/** Why an accept was refused, from the answer's `reason`, as the page's own message. */
class Refused extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

const REASONS: Record<string, PartnerMessageKey> = {
  expired: 'pc.invite.expired',
  used: 'pc.invite.used',
  accepted: 'pc.invite.used',
  revoked: 'pc.invite.revoked',
  email_mismatch: 'pc.invite.mismatch',
  unknown: 'pc.invite.unknown',
};

/**
 * The invitation link's page (issue 32 C4), public: which partner, role and expiry; signed out,
 * sign in or register and come back here (`?next=`); signed in, accept and open the console.
 */
export default function Invitation() {
  const t = usePartnerT();
  const { language } = useI18n();
  useTitle(t('pc.invite.title'));
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const me = useMe();
  const preview = useQuery({
    queryKey: ['partner-invitation', token],
    queryFn: () => unwrap(api.GET('/api/v1/partner-invitations/{token}', { params: { path: { token } } })),
    retry: false,
  });
  const accept = useMutation({
    mutationFn: async () => {
      const res = await api.POST('/api/v1/partner-invitations/{token}/accept', {
        params: { path: { token } },
      });
      if (res.data) return res.data;
      const reason = (res.error as { reason?: string } | undefined)?.reason;
      if (reason) throw new Refused(reason);
      return unwrap(Promise.resolve(res));
    },
    onSuccess: (joined) => {
      if (joined) void navigate(`/partner?partner=${encodeURIComponent(joined.partnerId)}`);
    },
  });
  const here = `/partner-invitations/${encodeURIComponent(token)}`;
  const inv = preview.data;
  const user = me.data;
  const refused = accept.error instanceof Refused ? accept.error.reason : null;
  const status = inv && inv.status !== 'pending' ? inv.status : null;
  const mismatch = Boolean(inv && user && user.email.toLowerCase() !== inv.email.toLowerCase());
  const problem = refused ?? status ?? (mismatch ? 'email_mismatch' : null);

  return (
    <section className="auth-card card" data-testid="invitation">
      <h1>{t('pc.invite.title')}</h1>
      {preview.isError ? (
        <p className="form-error" role="alert">
          {t('pc.invite.unknown')}
        </p>
      ) : null}
      {inv ? (
        <>
          <p>
            {t('pc.invite.body', {
              partner: inv.partnerName,
              email: inv.email,
              role: t(`pc.role.${inv.role}`),
            })}
          </p>
          <p className="hint">{t('pc.invite.expires', { date: formatDateTime(inv.expiresAt, language) })}</p>
          {problem ? (
            <p className="form-error" role="alert" data-testid="invitation-problem">
              {t(REASONS[problem] ?? 'pc.invite.unknown', { email: inv.email })}
            </p>
          ) : null}
          {!user && !status ? (
            <>
              <p>{t('pc.invite.signedOut', { email: inv.email })}</p>
              <p className="actions">
                <Link className="button primary" to={`/login?next=${encodeURIComponent(here)}`}>
                  {t('pc.invite.signIn')}
                </Link>{' '}
                <Link className="button" to={`/register?next=${encodeURIComponent(here)}`}>
                  {t('pc.invite.register')}
                </Link>
              </p>
            </>
          ) : null}
          {user && !problem ? (
            <>
              <p className="muted">{t('pc.invite.signedInAs', { email: user.email })}</p>
              {accept.error && !refused ? <FormError error={accept.error} /> : null}
              <button
                type="button"
                className="button primary"
                onClick={() => accept.mutate()}
                disabled={accept.isPending}
              >
                {t('pc.invite.accept')}
              </button>
            </>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
