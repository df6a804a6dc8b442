/**
 * The invoice as a PDF (Download Invoice; docs/billing.md), drawn with pdfkit: the number, dates
 * and status, who it is for, the line item (the offer and the days it covers), the amount, what
 * was paid and the balance, the payment method and the payments recorded. A4, the standard
 * Helvetica font: text it cannot draw (a business name in another script) is shown as the
 * reports show it (the insights module's `toPdfText`).
 */
import PDFDocument from 'pdfkit';
import { coveredDaysLabel, dayLabel, formatAmount, INVOICE_STATUS_LABELS, monthLabel, PAYMENT_METHOD, type InvoiceStatus } from '../../../common/api/billing';
import { toPdfText } from '../insights';

const MARGIN = 56;
const FONT = 'Helvetica';
const BOLD = 'Helvetica-Bold';
const COLOR = { text: '#111827', muted: '#4b5563', rule: '#d1d5db', fill: '#f3f4f6', overdue: '#b91c1c', paid: '#15803d' };

export interface InvoicePdfInput {
  number: string;
  status: InvoiceStatus;
  issuedOn: string;
  dueOn: string;
  period: string;
  periodStart: string;
  periodEnd: string;
  description: string;
  amountMinor: number;
  paidMinor: number;
  currency: string;
  paidAt: Date | null;
  voidedAt: Date | null;
  voidReason: string | null;
  client: { name: string; contact: string | null; email: string | null };
  payments: readonly { paidOn: string; amountMinor: number; note: string | null }[];
  createdAt: Date;
}

const text = (value: string) => toPdfText(value).text;

export function invoicePdf(invoice: InvoicePdfInput): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    lang: 'en-GB',
    displayTitle: true,
    info: { Title: `Invoice ${invoice.number}`, Author: 'Parley', Creator: 'Parley', CreationDate: invoice.createdAt },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const left = MARGIN;
  const width = doc.page.width - 2 * MARGIN;
  const money = (minor: number) => formatAmount(minor, invoice.currency);
  const rule = (y: number) => doc.moveTo(left, y).lineTo(left + width, y).lineWidth(0.75).strokeColor(COLOR.rule).stroke();

  // Header: who issues it, and the invoice's number.
  doc.font(BOLD).fontSize(22).fillColor(COLOR.text).text('Parley', left, MARGIN);
  doc.font(FONT).fontSize(9).fillColor(COLOR.muted).text('AI customer messaging', left, doc.y);
  doc.font(BOLD).fontSize(18).fillColor(COLOR.text).text('Invoice', left, MARGIN, { width, align: 'right' });
  doc.font(FONT).fontSize(11).fillColor(COLOR.text).text(invoice.number, left, doc.y, { width, align: 'right' });
  const statusColor = invoice.status === 'overdue' ? COLOR.overdue : invoice.status === 'paid' ? COLOR.paid : COLOR.muted;
  doc.font(BOLD).fontSize(11).fillColor(statusColor).text(`Status: ${INVOICE_STATUS_LABELS[invoice.status]}`, left, doc.y, { width, align: 'right' });
  doc.y = Math.max(doc.y, MARGIN + 60);
  doc.moveDown(1);
  rule(doc.y);
  doc.moveDown(1);

  // Bill to, and the dates.
  const top = doc.y;
  const half = width / 2 - 10;
  doc.font(BOLD).fontSize(9).fillColor(COLOR.muted).text('BILL TO', left, top);
  doc.font(BOLD).fontSize(12).fillColor(COLOR.text).text(text(invoice.client.name), left, doc.y, { width: half });
  doc.font(FONT).fontSize(10).fillColor(COLOR.text);
  if (invoice.client.contact) doc.text(text(invoice.client.contact), left, doc.y, { width: half });
  if (invoice.client.email) doc.text(text(invoice.client.email), left, doc.y, { width: half });
  const billToBottom = doc.y;
  const dates: [string, string][] = [
    ['Invoice date', dayLabel(invoice.issuedOn)],
    ['Due date', dayLabel(invoice.dueOn)],
    ['Billing period', monthLabel(invoice.period)],
  ];
  if (invoice.paidAt) dates.push(['Paid on', dayLabel(invoice.paidAt.toISOString().slice(0, 10))]);
  if (invoice.voidedAt) dates.push(['Voided on', dayLabel(invoice.voidedAt.toISOString().slice(0, 10))]);
  let y = top;
  for (const [label, value] of dates) {
    doc.font(FONT).fontSize(10).fillColor(COLOR.muted).text(label, left + width / 2, y, { width: half / 2 });
    doc.font(BOLD).fontSize(10).fillColor(COLOR.text).text(value, left + width / 2 + half / 2, y, { width: half / 2 + 10, align: 'right' });
    y += 16;
  }
  doc.y = Math.max(billToBottom, y) + 24;

  // The line item.
  const columns = [
    { header: 'Description', width: width * 0.45, align: 'left' as const },
    { header: 'Period', width: width * 0.3, align: 'left' as const },
    { header: 'Amount', width: width * 0.25, align: 'right' as const },
  ];
  const pad = 6;
  const drawRow = (cells: readonly string[], font: string, shaded: boolean) => {
    doc.font(font).fontSize(10);
    const height = Math.max(...cells.map((cell, i) => doc.heightOfString(cell, { width: columns[i]!.width - 2 * pad }))) + 2 * pad;
    const rowTop = doc.y;
    if (shaded) doc.rect(left, rowTop, width, height).fill(COLOR.fill);
    doc.fillColor(COLOR.text);
    let x = left;
    cells.forEach((cell, i) => {
      doc.font(font).fontSize(10).text(cell, x + pad, rowTop + pad, { width: columns[i]!.width - 2 * pad, align: columns[i]!.align });
      x += columns[i]!.width;
    });
    rule(rowTop + height);
    doc.x = left;
    doc.y = rowTop + height;
  };
  drawRow(
    columns.map((c) => c.header),
    BOLD,
    true,
  );
  drawRow([`${text(invoice.description)}\nMonthly subscription`, coveredDaysLabel(invoice.periodStart, invoice.periodEnd), money(invoice.amountMinor)], FONT, false);
  doc.moveDown(0.8);

  // Totals.
  const totals: [string, string, boolean][] = [
    ['Total', money(invoice.amountMinor), false],
    ['Paid', money(invoice.paidMinor), false],
    [invoice.status === 'void' ? 'Balance (void)' : 'Balance due', money(invoice.status === 'void' ? 0 : invoice.amountMinor - invoice.paidMinor), true],
  ];
  for (const [label, value, bold] of totals) {
    const rowY = doc.y;
    doc.font(bold ? BOLD : FONT).fontSize(bold ? 12 : 10).fillColor(COLOR.text);
    doc.text(label, left + width * 0.45, rowY, { width: width * 0.3 });
    doc.text(value, left + width * 0.75, rowY, { width: width * 0.25, align: 'right' });
    doc.y = rowY + (bold ? 20 : 16);
  }
  doc.moveDown(1.2);

  // How it is paid, and the payments recorded.
  doc.font(BOLD).fontSize(10).fillColor(COLOR.text).text('Payment method', left, doc.y);
  doc.font(FONT).fontSize(10).text(PAYMENT_METHOD, left, doc.y, { width });
  doc.moveDown(0.8);
  if (invoice.voidReason) {
    doc.font(BOLD).fontSize(10).text('Voided', left, doc.y);
    doc.font(FONT).fontSize(10).text(text(invoice.voidReason), left, doc.y, { width });
    doc.moveDown(0.8);
  }
  if (invoice.payments.length > 0) {
    doc.font(BOLD).fontSize(10).text('Payments received', left, doc.y);
    doc.font(FONT).fontSize(10);
    for (const payment of invoice.payments) {
      const line = `${dayLabel(payment.paidOn)}: ${money(payment.amountMinor)}${payment.note ? ` (${text(payment.note)})` : ''}`;
      if (doc.y + doc.heightOfString(line, { width }) > doc.page.height - MARGIN) doc.addPage();
      doc.text(line, left, doc.y, { width });
    }
    doc.moveDown(0.8);
  }
  doc.font(FONT).fontSize(8.5).fillColor(COLOR.muted).text(`Amounts in ${invoice.currency}. Questions about this invoice: contact your Parley administrator.`, left, doc.y, { width });

  doc.end();
  return done;
}
