import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { Language } from '../i18n';

export type LegalPage = 'terms' | 'privacy' | 'refund-policy' | 'contact';

/**
 * Who sells (COMPANY_NAME, COMPANY_ADDRESS, SUPPORT_EMAIL), for the footer: the configuration of
 * the running service, so it is read once per page load and kept.
 */
export function useCompany() {
  return useQuery({
    queryKey: ['legal', 'company'],
    queryFn: () => unwrap(api.GET('/api/v1/legal')),
    staleTime: Infinity,
  });
}

/** A legal page in the UI language, as HTML the server rendered from its Markdown template. */
export function useLegalPage(page: LegalPage, language: Language) {
  return useQuery({
    queryKey: ['legal', page, language],
    queryFn: () =>
      unwrap(api.GET('/api/v1/legal/{page}', { params: { path: { page }, query: { lang: language } } })),
    staleTime: 5 * 60_000,
  });
}
