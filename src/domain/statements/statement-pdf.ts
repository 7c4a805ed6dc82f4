import { createRequire } from 'node:module';
import { centsText } from '../../lib/csv.js';
import { STATEMENT_KINDS, type Statement, type StatementKind } from './statement.js';

/**
 * A statement as a PDF, drawn with pdfkit like receipts (src/domain/receipts/receipt-pdf.ts:
 * loaded on first use, DejaVu Sans embedded so any name prints). English: an accountant's
 * document, the same in every dashboard language.
 */

const KIND_LABEL: Record<StatementKind, string> = {
  top_up: 'Top-ups',
  order: 'Orders',
  refund: 'Refunds',
  adjustment: 'Adjustments',
};

const usd = (amount: number) => `US$ ${centsText(Math.round(amount * 100))}`;

export async function statementPdf(s: Statement, company: { name: string }): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const require = createRequire(import.meta.url);
  const regular = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');
  const bold = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf');
  const title = `Statement ${s.month} (${s.livemode ? 'live' : 'test'})`;
  const doc = new PDFDocument({
    size: 'A4',
    margin: 48,
    font: regular,
    lang: 'en',
    info: { Title: title, Author: company.name },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const bottom = () => doc.page.height - doc.page.margins.bottom - 24;

  doc.font(bold).fontSize(18).text(title);
  doc.font(regular).fontSize(10).moveDown(0.3);
  doc.text(`${company.name} — partner ${s.partnerId}`);
  doc.text(`Period: ${s.periodStart.slice(0, 10)} to ${s.periodEnd.slice(0, 10)} (exclusive), UTC`);
  doc.text(
    s.final
      ? 'Final: this month is closed and this statement will not change.'
      : `Not final: the month is still open (as of ${s.generatedAt}).`,
  );
  doc.moveDown();

  const summary: Array<[string, string]> = [
    ['Opening balance', usd(s.openingBalance)],
    ...STATEMENT_KINDS.map((k): [string, string] => [
      `${KIND_LABEL[k]} (${s.totals[k].count})`,
      usd(s.totals[k].amount),
    ]),
    ['Net change', usd(s.totals.net)],
    ['Closing balance', usd(s.closingBalance)],
  ];
  for (const [label, value] of summary) {
    const y = doc.y;
    doc.font(label.endsWith('balance') ? bold : regular).text(label, left, y, { width: width * 0.6 });
    doc.text(value, left + width * 0.6, y, { width: width * 0.4, align: 'right' });
  }
  doc.moveDown();

  const cols = {
    date: left,
    kind: left + 110,
    desc: left + 185,
    amount: left + width - 150,
    bal: left + width - 75,
  };
  const header = () => {
    const y = doc.y;
    doc.font(bold).fontSize(9);
    doc.text('Date (UTC)', cols.date, y, { width: 105 });
    doc.text('Type', cols.kind, y, { width: 70 });
    doc.text('Description', cols.desc, y, { width: cols.amount - cols.desc - 5 });
    doc.text('Amount', cols.amount, y, { width: 70, align: 'right' });
    doc.text('Balance', cols.bal, y, { width: 75, align: 'right' });
    doc.font(regular).moveDown(0.3);
  };
  header();
  for (const line of s.transactions) {
    if (doc.y > bottom()) {
      doc.addPage();
      header();
    }
    const y = doc.y;
    doc.text(line.at.replace('T', ' ').slice(0, 19), cols.date, y, { width: 105 });
    doc.text(line.kind.replace('_', '-'), cols.kind, y, { width: 70 });
    doc.text(line.description, cols.desc, y, { width: cols.amount - cols.desc - 5 });
    const after = doc.y;
    doc.text(centsText(Math.round(line.amount * 100)), cols.amount, y, { width: 70, align: 'right' });
    doc.text(centsText(Math.round(line.balanceAfter * 100)), cols.bal, y, { width: 75, align: 'right' });
    doc.y = Math.max(after, doc.y);
    doc.moveDown(0.2);
  }
  if (s.transactions.length === 0) doc.text('No transactions this month.', left, doc.y, { width });
  doc.moveDown();
  doc
    .fontSize(8)
    .fillColor('#555555')
    .text(`Generated ${s.generatedAt}. Amounts in USD.`, left, doc.y, { width });
  doc.end();
  return finished;
}
