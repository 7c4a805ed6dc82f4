import { useInfiniteQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { FormError } from '../../components/FormError';
import { RecordTable } from '../../components/RecordTable';
import { useI18n } from '../../i18n';
import { formatDateTime } from '../../lib/format';
import { usePartnerT, type PartnerConsole } from '../../partner/console';
import { PartnerShell } from '../../partner/PartnerShell';
import '../../partner/team.css';

const PAGE = 50;

/** A before/after summary in one short line (the server never puts a key or secret there). */
function summary(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value !== 'object') return JSON.stringify(value);
  return Object.entries(value as Record<string, unknown>)
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(', ');
}

function AuditPanel({ pc }: { pc: PartnerConsole }) {
  const t = usePartnerT();
  const { language } = useI18n();
  const log = useInfiniteQuery({
    queryKey: [...pc.key, 'audit'],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/api/v1/partners/{partnerId}/audit', {
          params: {
            ...pc.scope,
            query: { ...pc.scope.query, limit: PAGE, ...(pageParam ? { cursor: pageParam } : {}) },
          },
        }),
      ),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const rows = log.data?.pages.flatMap((p) => p.entries) ?? [];
  type Entry = (typeof rows)[number];
  return (
    <section className="card partner-wrap">
      <FormError error={log.error} />
      {log.isSuccess && rows.length === 0 ? <p className="muted">{t('pc.audit.empty')}</p> : null}
      {rows.length ? (
        <RecordTable<Entry>
          caption={t('pc.tab.audit')}
          rows={rows}
          rowKey={(e) => e.id}
          testId="audit-row"
          columns={[
            {
              header: t('pc.audit.action'),
              card: 'title',
              cell: (e) => <span className="mono">{e.action}</span>,
            },
            { header: t('pc.audit.time'), card: 'aside', cell: (e) => formatDateTime(e.createdAt, language) },
            { header: t('pc.audit.actor'), cell: (e) => e.actorEmail ?? e.actor ?? '—' },
            { header: t('pc.audit.target'), cell: (e) => `${e.targetType} ${e.targetId}` },
            {
              header: t('pc.audit.change'),
              cell: (e) => `${summary(e.before)} → ${summary(e.after)}`,
            },
          ]}
        />
      ) : null}
      {log.hasNextPage ? (
        <button
          type="button"
          className="button"
          onClick={() => void log.fetchNextPage()}
          disabled={log.isFetchingNextPage}
        >
          {t('pc.audit.more')}
        </button>
      ) : null}
    </section>
  );
}

export default function Audit() {
  return (
    <PartnerShell title="pc.tab.audit" permission="audit.read">
      {(pc) => <AuditPanel key={pc.partnerId} pc={pc} />}
    </PartnerShell>
  );
}
