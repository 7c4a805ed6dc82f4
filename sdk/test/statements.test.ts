import { describe, expect, it } from 'vitest';
import {
  createPartnerClient,
  exportWalletTransactions,
  getStatement,
  getStatementCsv,
  getStatementPdf,
  PartnerApiError,
} from '../src/client.js';

const STATEMENT = {
  partnerId: 'acc_1',
  livemode: true,
  month: '2026-10',
  currency: 'USD',
  periodStart: '2026-10-01T00:00:00.000Z',
  periodEnd: '2026-11-01T00:00:00.000Z',
  final: true,
  generatedAt: '2026-11-01T00:10:00.000Z',
  openingBalance: 0,
  closingBalance: 10,
  totals: {
    top_up: { count: 1, amount: 10 },
    order: { count: 0, amount: 0 },
    refund: { count: 0, amount: 0 },
    adjustment: { count: 0, amount: 0 },
    net: 10,
  },
  transactions: [],
};

function clientRecording() {
  const urls: string[] = [];
  const client = createPartnerClient({
    baseUrl: 'https://api.example.com/',
    apiKey: 'svc_live_sk_x',
    fetch: async (request) => {
      urls.push(request.url);
      const url = new URL(request.url);
      if (url.pathname.endsWith('/2027-01'))
        return Response.json({ error: { code: 'NOT_FOUND', message: 'not started' } }, { status: 404 });
      const format = url.searchParams.get('format');
      if (format === 'csv' || url.pathname.endsWith('.csv'))
        return new Response('date,type\r\n', { headers: { 'content-type': 'text/csv' } });
      if (format === 'pdf') return new Response(new TextEncoder().encode('%PDF-1.3'));
      return Response.json(STATEMENT);
    },
  });
  return { client, urls };
}

describe('statements', () => {
  it('reads a statement as JSON, CSV and PDF', async () => {
    const { client, urls } = clientRecording();
    expect(await getStatement(client, '2026-10')).toEqual(STATEMENT);
    expect(await getStatementCsv(client, '2026-10')).toBe('date,type\r\n');
    const pdf = await getStatementPdf(client, '2026-10');
    expect(new TextDecoder().decode(pdf.subarray(0, 5))).toBe('%PDF-');
    expect(urls).toEqual([
      'https://api.example.com/api/public/v1/statements/2026-10?format=json',
      'https://api.example.com/api/public/v1/statements/2026-10?format=csv',
      'https://api.example.com/api/public/v1/statements/2026-10?format=pdf',
    ]);
  });

  it('exports a date range of transactions', async () => {
    const { client, urls } = clientRecording();
    expect(await exportWalletTransactions(client, { from: '2026-10-01', to: '2026-10-31' })).toBe(
      'date,type\r\n',
    );
    expect(urls).toEqual([
      'https://api.example.com/api/public/v1/wallet/transactions.csv?from=2026-10-01&to=2026-10-31',
    ]);
  });

  it('throws PartnerApiError for a month that has not started', async () => {
    const { client } = clientRecording();
    const error = await getStatement(client, '2027-01').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PartnerApiError);
    expect((error as PartnerApiError).code).toBe('NOT_FOUND');
  });
});
