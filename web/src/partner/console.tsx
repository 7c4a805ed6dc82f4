import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { api, unwrap } from '../api/client';
import type { PartnerMembership } from '../api/types';
import { useI18n } from '../i18n';
import { interpolate } from './messages';
import { PARTNER_MESSAGES, type PartnerMessageKey } from './messages/index';

export type PartnerMode = 'live' | 'test';
export type PartnerPermission = PartnerMembership['permissions'][number];

/**
 * The partner console's state, all of it in the URL so a reload or a shared link shows the same
 * thing: `?partner=` (default: your own account) and `?mode=test` (default live). Every console
 * page reads it from here and every console link keeps it (`link`).
 */
export function usePartnerConsole() {
  const [params] = useSearchParams();
  const mode: PartnerMode = params.get('mode') === 'test' ? 'test' : 'live';
  const list = useQuery({
    queryKey: ['partners'],
    queryFn: async () => (await unwrap(api.GET('/api/v1/partners'))).partners,
    staleTime: 60_000,
  });
  const asked = params.get('partner');
  const membership: PartnerMembership | undefined = list.data?.find((p) => p.id === asked) ?? list.data?.[0];
  const partnerId = membership?.id ?? '';
  const detail = useQuery({
    queryKey: ['partner', partnerId],
    enabled: Boolean(partnerId),
    queryFn: () => unwrap(api.GET('/api/v1/partners/{partnerId}', { params: { path: { partnerId } } })),
  });
  const can = useCallback(
    (permission: PartnerPermission) => Boolean(membership?.permissions.includes(permission)),
    [membership],
  );
  /** A console URL that keeps the chosen partner and mode. */
  const link = useCallback(
    (path: string, next: { mode?: PartnerMode; partner?: string } = {}) => {
      const q = new URLSearchParams();
      const p = next.partner ?? partnerId;
      if (p && list.data && p !== list.data[0]?.id) q.set('partner', p);
      if ((next.mode ?? mode) === 'test') q.set('mode', 'test');
      const s = q.toString();
      return s ? `${path}${path.includes('?') ? '&' : '?'}${s}` : path;
    },
    [partnerId, mode, list.data],
  );
  /** The `path` and `query` parameters every /api/v1/partners/{partnerId}/… call takes. */
  const scope = useMemo(() => ({ path: { partnerId }, query: { mode } }), [partnerId, mode]);
  return {
    partners: list.data ?? [],
    membership,
    detail: detail.data,
    partnerId,
    mode,
    can,
    link,
    scope,
    /** Query keys of console data start with this: switching partner or mode reads afresh. */
    key: ['partner', partnerId, mode] as const,
    ready: Boolean(membership),
    error: list.error ?? detail.error,
  };
}

export type PartnerConsole = ReturnType<typeof usePartnerConsole>;

/** The console's translate function: its own messages, in the UI language, English as fallback. */
export function usePartnerT() {
  const { language } = useI18n();
  return useCallback(
    (key: PartnerMessageKey, params?: Record<string, string | number>) =>
      interpolate(PARTNER_MESSAGES[language][key] || PARTNER_MESSAGES.en[key] || key, params),
    [language],
  );
}
