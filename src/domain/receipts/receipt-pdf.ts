import { createRequire } from 'node:module';
import { formatAmount, receiptFigures } from './receipt-format.js';
import { receiptLabels } from './receipt-labels.js';
import type { Receipt } from './receipts.service.js';

/**
 * A receipt as a PDF (issue 30 T9), drawn with pdfkit. pdfkit is loaded on first use and left
 * outside the server bundle (scripts/server-externals.ts): it reads its own data files next to
 * its package. The text font is DejaVu Sans from `dejavu-fonts-ttf`, embedded (subset), because
 * PDF's built-in Helvetica has no ğ, ş, ı or İ: names and addresses in any UI language print.
 */

const fonts = (() => {
  let paths: { regular: string; bold: string } | undefined;
  return () => {
    if (!paths) {
      const require = createRequire(import.meta.url);
      paths = {
        regular: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
        bold: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
      };
    }
    return paths;
  };
})();

type PdfDocument = PDFKit.PDFDocument;

async function loadPdfKit(): Promise<new (options?: PDFKit.PDFDocumentOptions) => PdfDocument> {
  const { default: PDFDocument } = await import('pdfkit');
  return PDFDocument;
}

export async function receiptPdf(receipt: Receipt): Promise<Buffer> {
  const PDFDocument = await loadPdfKit();
  const { regular, bold } = fonts();
  const labels = receiptLabels(receipt.locale);
  const figures = receiptFigures(receipt);
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    font: regular,
    lang: receipt.locale,
    info: { Title: `${labels.receipt} ${receipt.number}`, Author: receipt.company.name },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;

  doc.font(bold).fontSize(20).text(labels.receipt);
  doc.moveDown(0.5);
  doc.font(bold).fontSize(11).text(receipt.company.name);
  doc.font(regular).fontSize(10);
  if (receipt.company.address) doc.text(receipt.company.address);
  doc.text(receipt.company.supportEmail);
  doc.moveDown();

  const field = (label: string, value: string) => {
    doc.font(bold).text(`${label}: `, { continued: true }).font(regular).text(value);
  };
  field(labels.number, receipt.number);
  field(labels.date, figures.issued);
  if (receipt.orderNumber) field(labels.order, receipt.orderNumber);
  field(labels.billedTo, [receipt.customer.name, receipt.customer.email].filter(Boolean).join(', '));
  field(labels.paymentMethod, labels.method[receipt.paymentMethod]);
  if (receipt.status === 'REFUNDED') field(labels.refunded, '✓');
  doc.moveDown();

  // The line items: description, quantity, amount, with a rule above and below.
  const columns = { qty: left + width * 0.62, amount: left + width * 0.74 };
  const rule = () => {
    doc
      .moveTo(left, doc.y)
      .lineTo(left + width, doc.y)
      .lineWidth(0.5)
      .stroke();
    doc.moveDown(0.4);
  };
  rule();
  let y = doc.y;
  doc.font(bold);
  doc.text(labels.item, left, y, { width: width * 0.6 });
  doc.text(labels.quantity, columns.qty, y, { width: width * 0.1 });
  doc.text(labels.amount, columns.amount, y, { width: width * 0.26, align: 'right' });
  doc.font(regular).moveDown(0.4);
  for (const line of receipt.lines) {
    y = doc.y;
    doc.text(line.description, left, y, { width: width * 0.6 });
    const after = doc.y;
    doc.text(String(line.quantity), columns.qty, y, { width: width * 0.1 });
    doc.text(formatAmount(line.totalUsdCents, 'USD', receipt.locale), columns.amount, y, {
      width: width * 0.26,
      align: 'right',
    });
    doc.y = Math.max(after, doc.y);
    doc.moveDown(0.4);
  }
  doc.x = left;
  rule();

  y = doc.y;
  doc
    .font(bold)
    .fontSize(12)
    .text(labels.total, left, y, { width: width * 0.6 });
  doc.text(figures.total, columns.amount, y, { width: width * 0.26, align: 'right' });
  doc.font(regular).fontSize(10).text(labels.charged, left, doc.y, { width });
  if (receipt.display && figures.display) {
    doc.moveDown(0.5);
    const rate = labels.rate(receipt.display.ratePerUsd, figures.rateDay ?? '—');
    doc.text(`${labels.inCurrency(receipt.display.currency)}: ${figures.display} (${rate})`, left, doc.y, {
      width,
    });
  }
  doc.moveDown(2);
  doc.fontSize(8).fillColor('#555555').text(labels.footer, left, doc.y, { width });
  doc.end();
  return finished;
}
