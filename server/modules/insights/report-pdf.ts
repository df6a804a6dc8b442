/**
 * The PDF reports (issue 16 §2–3; docs/insights.md "Reports"), drawn with pdfkit: the insights
 * page's period report (the four cards against the period before, totals and medians, channels,
 * agents, clients, six months of trends) and the AI Summary (overview, topics, performance by time
 * of day and by channel). Every table is the figures of the page; each chart is a plain bar chart
 * of a table's column, drawn beside it. A4, the standard Helvetica font (./pdf-text.ts says how
 * text it cannot draw is shown), page numbers in the footer.
 */
import PDFDocument from 'pdfkit';
import { INSIGHTS_PERIOD_LABELS, type ComparedFigure, type InsightsPeriodKind, type InsightsView } from '../../../common/api/insights';
import { REPORT_UNSHOWN_TEXT } from '../../../common/api/reports';
import type { SummaryView } from '../../../common/api/summary';
import { toPdfText } from './pdf-text';

const MARGIN = 48;
const FONT = 'Helvetica';
const BOLD = 'Helvetica-Bold';
const COLOR = { text: '#111827', muted: '#4b5563', rule: '#d1d5db', fill: '#f3f4f6', bar: '#4f46e5' };
const NONE = '—';
/** Most rows of a long table (agents, clients) a PDF prints, most conversations first; the CSV has them all. */
export const PDF_TABLE_ROWS = 100;

interface Column {
  header: string;
  /** A share of the table's width (the shares of a table's columns are summed). */
  width: number;
  align?: 'left' | 'right';
}

interface Card {
  label: string;
  value: string;
  detail: string;
}

interface Bar {
  label: string;
  value: number;
}

/** A report being drawn: its pdfkit document, where it is on the page, and whether any text had to be left out. */
class ReportDocument {
  readonly #doc: PDFKit.PDFDocument;
  readonly #done: Promise<Buffer>;
  #replaced = false;

  constructor(title: string, createdAt: Date) {
    this.#doc = new PDFDocument({
      size: 'A4',
      margin: MARGIN,
      bufferPages: true,
      lang: 'en-GB',
      displayTitle: true,
      info: { Title: title, Author: 'Parley', Creator: 'Parley', CreationDate: createdAt },
    });
    const chunks: Buffer[] = [];
    this.#done = new Promise((resolve, reject) => {
      this.#doc.on('data', (chunk: Buffer) => chunks.push(chunk));
      this.#doc.on('end', () => resolve(Buffer.concat(chunks)));
      this.#doc.on('error', reject);
    });
  }

  get #left(): number {
    return this.#doc.page.margins.left;
  }

  get #width(): number {
    return this.#doc.page.width - this.#doc.page.margins.left - this.#doc.page.margins.right;
  }

  get #bottom(): number {
    return this.#doc.page.height - this.#doc.page.margins.bottom;
  }

  /** Text the font can draw; remembers when something was left out. */
  #t(text: string): string {
    return text
      .split('\n')
      .map((line) => {
        const result = toPdfText(line);
        if (result.replaced) this.#replaced = true;
        return result.text;
      })
      .join('\n');
  }

  /** A new page unless `height` points still fit on this one. */
  #ensure(height: number): void {
    if (this.#doc.y + height > this.#bottom) this.#doc.addPage();
  }

  /** `text` cut with an ellipsis to fit `width` in the current font. */
  #fit(text: string, width: number): string {
    const doc = this.#doc;
    if (doc.widthOfString(text) <= width) return text;
    let cut = text;
    while (cut.length > 1 && doc.widthOfString(`${cut}…`) > width) cut = cut.slice(0, -1);
    return `${cut.trimEnd()}…`;
  }

  title(title: string, lines: readonly string[]): void {
    const doc = this.#doc;
    doc.font(BOLD).fontSize(20).fillColor(COLOR.text).text(this.#t(title), this.#left, doc.y);
    doc.moveDown(0.3);
    doc.font(FONT).fontSize(9.5).fillColor(COLOR.muted);
    for (const line of lines) doc.text(this.#t(line), this.#left, doc.y, { width: this.#width });
    doc.moveDown(0.8);
  }

  /** A section's heading, on a new page unless `keepWith` points of what follows fit under it. */
  heading(text: string, keepWith = 70): void {
    const doc = this.#doc;
    this.#ensure(keepWith + 30);
    doc.moveDown(0.6);
    doc.font(BOLD).fontSize(13).fillColor(COLOR.text).text(this.#t(text), this.#left, doc.y, { width: this.#width });
    doc.moveDown(0.3);
  }

  note(text: string): void {
    const doc = this.#doc;
    doc.font(FONT).fontSize(9).fillColor(COLOR.muted);
    this.#ensure(doc.heightOfString(this.#t(text), { width: this.#width }));
    doc.text(this.#t(text), this.#left, doc.y, { width: this.#width });
    doc.moveDown(0.4);
  }

  /** Figures in boxes, `perRow` to a row: a label, the value large, a line under it. */
  cards(cards: readonly Card[], perRow: number): void {
    const doc = this.#doc;
    const gap = 8;
    const width = (this.#width - gap * (perRow - 1)) / perRow;
    const pad = 8;
    for (let start = 0; start < cards.length; start += perRow) {
      const row = cards.slice(start, start + perRow);
      const detailHeight = Math.max(
        ...row.map((card) => {
          doc.font(FONT).fontSize(7.5);
          return doc.heightOfString(this.#t(card.detail), { width: width - 2 * pad });
        }),
      );
      const height = pad + 11 + 22 + detailHeight + pad;
      this.#ensure(height + gap);
      const top = doc.y;
      row.forEach((card, i) => {
        const x = this.#left + i * (width + gap);
        doc.lineWidth(0.75).roundedRect(x, top, width, height, 4).strokeColor(COLOR.rule).stroke();
        doc.font(FONT).fontSize(8).fillColor(COLOR.muted).text(this.#t(card.label), x + pad, top + pad, { width: width - 2 * pad, lineBreak: false });
        doc.font(BOLD).fontSize(16).fillColor(COLOR.text).text(this.#t(card.value), x + pad, top + pad + 11, { width: width - 2 * pad, lineBreak: false });
        doc.font(FONT).fontSize(7.5).fillColor(COLOR.muted).text(this.#t(card.detail), x + pad, top + pad + 33, { width: width - 2 * pad });
      });
      doc.x = this.#left;
      doc.y = top + height + gap;
    }
  }

  /** A table with a shaded header row, repeated on each page it runs onto. */
  table(columns: readonly Column[], rows: readonly (readonly string[])[]): void {
    const doc = this.#doc;
    const pad = 3.5;
    const size = columns.length > 8 ? 7.5 : 8;
    const headers = columns.map((c) => this.#t(c.header));
    const cells = rows.map((row) => row.map((cell) => this.#t(cell)));
    const widths = this.#columnWidths(columns, headers, cells, size, pad);
    const heightOf = (texts: readonly string[], font: string) => {
      doc.font(font).fontSize(size);
      return Math.max(...texts.map((text, i) => doc.heightOfString(text === '' ? ' ' : text, { width: widths[i]! - 2 * pad }))) + 2 * pad;
    };
    const headerHeight = heightOf(headers, BOLD);
    const drawRow = (texts: readonly string[], font: string, top: number, height: number, shaded: boolean) => {
      if (shaded) doc.rect(this.#left, top, this.#width, height).fill(COLOR.fill);
      doc.font(font).fontSize(size).fillColor(COLOR.text);
      let x = this.#left;
      texts.forEach((text, i) => {
        doc.text(text, x + pad, top + pad, { width: widths[i]! - 2 * pad, align: columns[i]!.align ?? 'left' });
        x += widths[i]!;
      });
      doc
        .moveTo(this.#left, top + height)
        .lineTo(this.#left + this.#width, top + height)
        .lineWidth(0.5)
        .strokeColor(COLOR.rule)
        .stroke();
    };
    this.#ensure(headerHeight + (cells[0] ? heightOf(cells[0], FONT) : 0));
    let y = doc.y;
    drawRow(headers, BOLD, y, headerHeight, true);
    y += headerHeight;
    for (const row of cells) {
      const height = heightOf(row, FONT);
      if (y + height > this.#bottom) {
        doc.addPage();
        y = doc.y;
        drawRow(headers, BOLD, y, headerHeight, true);
        y += headerHeight;
      }
      drawRow(row, FONT, y, height, false);
      y += height;
    }
    doc.x = this.#left;
    doc.y = y + 10;
  }

  /**
   * Each column's share of the width, but never narrower than its header's longest word (a header
   * breaks between words, not inside one) or, for figures, than its widest figure; what that takes
   * comes from the columns with room to spare.
   */
  #columnWidths(columns: readonly Column[], headers: readonly string[], cells: readonly (readonly string[])[], size: number, pad: number): number[] {
    const doc = this.#doc;
    const total = columns.reduce((sum, c) => sum + c.width, 0);
    const least = columns.map((column, i) => {
      doc.font(BOLD).fontSize(size);
      const word = Math.max(...headers[i]!.split(/\s+/u).map((w) => doc.widthOfString(w)));
      doc.font(FONT).fontSize(size);
      const figure = column.align === 'right' ? Math.max(0, ...cells.map((row) => doc.widthOfString(row[i] ?? ''))) : 0;
      return Math.max(word, figure) + 2 * pad + 1;
    });
    const widths = columns.map((column, i) => Math.max((column.width / total) * this.#width, least[i]!));
    const excess = widths.reduce((sum, w) => sum + w, 0) - this.#width;
    if (excess <= 0) return widths;
    const room = widths.map((w, i) => w - least[i]!);
    const spare = room.reduce((sum, r) => sum + r, 0);
    return widths.map((w, i) => (spare > 0 ? w - (excess * room[i]!) / spare : w));
  }

  /** Horizontal bars, one per item, scaled to the largest, with the value written after each bar. */
  bars(caption: string, bars: readonly Bar[], format: (value: number) => string): void {
    const doc = this.#doc;
    if (bars.length === 0) return;
    const rowHeight = 15;
    const labelWidth = this.#width * 0.3;
    const valueWidth = 60;
    const barSpace = this.#width - labelWidth - valueWidth - 12;
    const max = Math.max(...bars.map((b) => b.value), 0);
    this.#ensure(16 + rowHeight * Math.min(bars.length, 3));
    doc.font(BOLD).fontSize(8.5).fillColor(COLOR.muted).text(this.#t(caption), this.#left, doc.y, { width: this.#width });
    doc.moveDown(0.3);
    let y = doc.y;
    for (const bar of bars) {
      if (y + rowHeight > this.#bottom) {
        doc.addPage();
        y = doc.y;
      }
      doc.font(FONT).fontSize(8).fillColor(COLOR.text);
      doc.text(this.#fit(this.#t(bar.label.replace(/\s+/gu, ' ')), labelWidth - 4), this.#left, y + 3, { width: labelWidth - 4, lineBreak: false });
      const length = max > 0 ? (barSpace * bar.value) / max : 0;
      if (length > 0) doc.rect(this.#left + labelWidth, y + 2, Math.max(length, 1), rowHeight - 5).fill(COLOR.bar);
      doc.fillColor(COLOR.text).text(format(bar.value), this.#left + labelWidth + length + 4, y + 3, { width: valueWidth, lineBreak: false });
      y += rowHeight;
    }
    doc.x = this.#left;
    doc.y = y + 8;
  }

  /** Vertical bars over a baseline, labelled under it, each value over its bar. */
  columns(caption: string, bars: readonly Bar[], format: (value: number) => string): void {
    const doc = this.#doc;
    if (bars.length === 0) return;
    const chartHeight = 110;
    this.#ensure(16 + chartHeight + 22);
    doc.font(BOLD).fontSize(8.5).fillColor(COLOR.muted).text(this.#t(caption), this.#left, doc.y, { width: this.#width });
    doc.moveDown(0.3);
    const top = doc.y;
    const baseline = top + chartHeight;
    const slot = this.#width / bars.length;
    const barWidth = slot * 0.62;
    const max = Math.max(...bars.map((b) => b.value), 0);
    const labelSize = bars.length > 12 ? 6.5 : 8;
    bars.forEach((bar, i) => {
      const x = this.#left + i * slot;
      const height = max > 0 ? ((chartHeight - 14) * bar.value) / max : 0;
      if (height > 0) doc.rect(x + (slot - barWidth) / 2, baseline - height, barWidth, Math.max(height, 1)).fill(COLOR.bar);
      doc.font(FONT).fontSize(labelSize).fillColor(COLOR.text);
      if (bar.value > 0) doc.text(format(bar.value), x, baseline - height - labelSize - 3, { width: slot, align: 'center', lineBreak: false });
      doc.fillColor(COLOR.muted).text(this.#t(bar.label), x, baseline + 4, { width: slot, align: 'center', lineBreak: false });
    });
    doc
      .moveTo(this.#left, baseline)
      .lineTo(this.#left + this.#width, baseline)
      .lineWidth(0.75)
      .strokeColor(COLOR.rule)
      .stroke();
    doc.x = this.#left;
    doc.y = baseline + 22;
  }

  /** Ends the document: the note on text left out (if any), then "<footer> · page n of m" on every page. */
  async finish(footer: string): Promise<Buffer> {
    const doc = this.#doc;
    if (this.#replaced) {
      doc.moveDown(0.6);
      this.note(
        `${REPORT_UNSHOWN_TEXT} marks text in a script this report's font cannot show (for example Cyrillic, Chinese or emoji). The page and the CSV export show it in full.`,
      );
    }
    const { start, count } = doc.bufferedPageRange();
    for (let i = start; i < start + count; i += 1) {
      doc.switchToPage(i);
      // Writing below the bottom margin would start a new page.
      const margin = doc.page.margins.bottom;
      doc.page.margins.bottom = 0;
      doc
        .font(FONT)
        .fontSize(7.5)
        .fillColor(COLOR.muted)
        .text(`${this.#t(footer)} · page ${i - start + 1} of ${count}`, this.#left, doc.page.height - MARGIN + 16, { width: this.#width, align: 'center', lineBreak: false });
      doc.page.margins.bottom = margin;
    }
    doc.end();
    return this.#done;
  }
}

// Figures, written as the web page writes them (web/src/lib/figures.ts), in British English.

const countFormat = new Intl.NumberFormat('en-GB');
const oneDecimal = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 1 });

export function formatCount(value: number | null): string {
  return value === null ? NONE : countFormat.format(value);
}

/** "42 s", "3 min", "1 h 5 min", "2 d 3 h". */
export function formatDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds) || seconds < 0) return NONE;
  if (seconds < 59.5) return `${Math.round(seconds)} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? `${days} d` : `${days} d ${hours % 24} h`;
}

/** A share (0–1) as a percentage: "42%", "33.3%". */
export function formatRate(rate: number | null): string {
  return rate === null || !Number.isFinite(rate) ? NONE : `${oneDecimal.format(rate * 100)}%`;
}

/** A mean rating out of 5: "3.5 / 5". */
export function formatSatisfaction(value: number | null): string {
  return value === null || !Number.isFinite(value) ? NONE : `${value.toFixed(1)} / 5`;
}

/**
 * The card's lines under a figure: the previous period's value, then the change — in per cent of
 * the previous value, or in percentage points for rates.
 */
export function previousLine(figure: ComparedFigure, format: (value: number | null) => string, unit: 'percent' | 'points'): string {
  const before = `Previous period: ${format(figure.previous)}`;
  const { value, previous } = figure;
  if (value === null || previous === null) return before;
  const sign = (n: number) => (n > 0 ? '+' : n < 0 ? '-' : '');
  if (unit === 'points') {
    const points = Math.round((value - previous) * 1000) / 10;
    return `${before}\nChange: ${sign(points)}${oneDecimal.format(Math.abs(points))} pp`;
  }
  if (previous === 0) return `${before}\nChange: ${value === 0 ? '0%' : 'new'}`;
  const percent = Math.round(((value - previous) / Math.abs(previous)) * 100);
  return `${before}\nChange: ${sign(percent)}${Math.abs(percent)}%`;
}

/** "10 May 2026, 14:05" in `timeZone`. */
function formatInstant(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
    new Date(iso),
  );
}

function formatDay(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, day: 'numeric', month: 'short', year: 'numeric' }).format(new Date(iso));
}

/** "Last 7 days: 3 May 2026, 14:05 – 10 May 2026, 14:05", or a custom range's days (its end excluded). */
export function describeReportPeriod(period: { kind: InsightsPeriodKind; from: string; to: string }, timeZone: string): string {
  if (period.kind === 'custom') {
    const first = formatDay(period.from, timeZone);
    const last = formatDay(new Date(Date.parse(period.to) - 1).toISOString(), timeZone);
    return `Custom range: ${first === last ? first : `${first} – ${last}`}`;
  }
  return `${INSIGHTS_PERIOD_LABELS[period.kind]}: ${formatInstant(period.from, timeZone)} – ${formatInstant(period.to, timeZone)}`;
}

const monthFormat = new Intl.DateTimeFormat('en-GB', { month: 'short', year: 'numeric', timeZone: 'UTC' });
/** "May 2026" for "2026-05" (a UTC month). */
function monthLabel(month: string): string {
  return monthFormat.format(new Date(`${month}-01T00:00:00Z`));
}

export interface InsightsReportOptions {
  /** The client the figures cover; null: every client. */
  clientName: string | null;
  /** Where the printed times are read (the viewer's zone). */
  timeZone: string;
}

/** The Analytics & Insights period report. */
export function drawInsightsReport(view: InsightsView, { clientName, timeZone }: InsightsReportOptions): Promise<Buffer> {
  const report = new ReportDocument('Analytics & Insights', new Date(view.generatedAt));
  const { metrics } = view;
  report.title('Analytics & Insights', [
    describeReportPeriod(view.period, timeZone),
    `Compared with the period of the same length just before: ${formatInstant(view.previous.from, timeZone)} – ${formatInstant(view.previous.to, timeZone)}`,
    `Client: ${clientName ?? 'All clients'}`,
    `Figures as of ${formatInstant(view.generatedAt, timeZone)} (times in ${timeZone}). A period covers the conversations started in it.`,
  ]);
  report.cards(
    [
      { label: 'Total conversations', value: formatCount(metrics.conversations.value), detail: previousLine(metrics.conversations, formatCount, 'percent') },
      {
        label: 'Median first response',
        value: formatDuration(metrics.medianFirstResponseSeconds.value),
        detail: previousLine(metrics.medianFirstResponseSeconds, formatDuration, 'percent'),
      },
      {
        label: 'Automated resolution',
        value: formatRate(metrics.automatedResolutionRate.value),
        detail: previousLine(metrics.automatedResolutionRate, formatRate, 'points'),
      },
      { label: 'Customer satisfaction', value: formatSatisfaction(metrics.satisfaction.value), detail: previousLine(metrics.satisfaction, formatSatisfaction, 'percent') },
    ],
    4,
  );

  report.heading('Totals and medians');
  const { totals, medians } = view;
  report.table(
    [
      { header: 'Figure', width: 3 },
      { header: 'Value', width: 1, align: 'right' },
    ],
    [
      ['Conversations', formatCount(totals.conversations)],
      ['Messages', formatCount(totals.messages)],
      ['Answered', formatCount(totals.answered)],
      ['Resolved', formatCount(totals.resolved)],
      ['Resolved by the AI alone', formatCount(totals.automated)],
      ['Handed to a person', formatCount(totals.handedOff)],
      ['Reopened', formatCount(totals.reopened)],
      ['Ratings (rated 4 or 5)', `${formatCount(totals.ratings)} (${formatCount(totals.satisfied)})`],
      ['Median first response', formatDuration(medians.firstResponseSeconds)],
      ['Median first response in business hours', formatDuration(medians.firstResponseBusinessSeconds)],
      ['Median resolution', formatDuration(medians.resolutionSeconds)],
      ['Median resolution in business hours', formatDuration(medians.resolutionBusinessSeconds)],
    ],
  );

  report.heading('Conversations by channel');
  const channels = view.distribution.conversationsByChannel;
  if (channels.length === 0) report.note('No conversations in this period.');
  else report.bars('Conversations started, by channel', channels.map((c) => ({ label: c.label, value: c.count })), (v) => formatCount(v));

  report.heading('Top performing agents');
  if (view.agents.length === 0) report.note('No agent answered a conversation in this period.');
  else {
    report.bars(
      view.agents.length > 10 ? 'Conversations, the 10 agents with the most' : 'Conversations per agent',
      view.agents.slice(0, 10).map((a) => ({ label: a.name, value: a.conversations })),
      (v) => formatCount(v),
    );
    report.table(
      [
        { header: 'Agent', width: 2.4 },
        { header: 'Kind', width: 0.8 },
        { header: 'Client', width: 1.8 },
        { header: 'Conversations', width: 1.3, align: 'right' },
        { header: 'Resolved', width: 1.1, align: 'right' },
        { header: 'Resolution rate', width: 1.2, align: 'right' },
        { header: 'Median first response', width: 1.4, align: 'right' },
        { header: 'Satisfaction (ratings)', width: 1.4, align: 'right' },
      ],
      view.agents.slice(0, PDF_TABLE_ROWS).map((a) => [
        a.name,
        a.kind === 'ai' ? 'AI' : 'Person',
        a.clientName ?? NONE,
        formatCount(a.conversations),
        formatCount(a.resolved),
        formatRate(a.resolutionRate),
        formatDuration(a.medianFirstResponseSeconds),
        `${formatSatisfaction(a.satisfaction)} (${formatCount(a.ratings)})`,
      ]),
    );
    if (view.agents.length > PDF_TABLE_ROWS) report.note(`The ${PDF_TABLE_ROWS} agents with the most conversations of ${formatCount(view.agents.length)}; the CSV export lists them all.`);
  }

  report.heading('Clients');
  if (view.clients.length === 0) report.note('No client.');
  else {
    const byConversations = [...view.clients].sort((a, b) => b.totals.conversations - a.totals.conversations);
    const busy = byConversations.filter((c) => c.totals.conversations > 0);
    if (busy.length > 0) {
      report.bars(
        busy.length > 10 ? 'Conversations, the 10 clients with the most' : 'Conversations per client',
        busy.slice(0, 10).map((c) => ({ label: c.name, value: c.totals.conversations })),
        (v) => formatCount(v),
      );
    }
    report.table(
      [
        { header: 'Client', width: 2.8 },
        { header: 'Status', width: 0.8 },
        { header: 'Conversations', width: 1.3, align: 'right' },
        { header: 'Messages', width: 1.1, align: 'right' },
        { header: 'Resolved', width: 1.1, align: 'right' },
        { header: 'Automated resolution', width: 1.3, align: 'right' },
        { header: 'Hand-off rate', width: 1.1, align: 'right' },
        { header: 'Median first response', width: 1.3, align: 'right' },
        { header: 'Median resolution', width: 1.3, align: 'right' },
        { header: 'Satisfaction', width: 1.1, align: 'right' },
      ],
      byConversations.slice(0, PDF_TABLE_ROWS).map((c) => [
        c.name,
        c.status,
        formatCount(c.totals.conversations),
        formatCount(c.totals.messages),
        formatCount(c.totals.resolved),
        formatRate(c.automatedResolutionRate),
        formatRate(c.handoffRate),
        formatDuration(c.medianFirstResponseSeconds),
        formatDuration(c.medianResolutionSeconds),
        formatSatisfaction(c.satisfaction),
      ]),
    );
    if (view.clients.length > PDF_TABLE_ROWS) report.note(`The ${PDF_TABLE_ROWS} clients with the most conversations of ${formatCount(view.clients.length)}; the CSV export lists them all.`);
  }

  report.heading('Six-month trends', 160);
  report.columns(
    'Conversations started per month (UTC)',
    view.trends.map((m) => ({ label: monthLabel(m.month), value: m.conversations })),
    (v) => formatCount(v),
  );
  report.table(
    [
      { header: 'Month', width: 1.4 },
      { header: 'Conversations', width: 1, align: 'right' },
      { header: 'Messages', width: 1, align: 'right' },
      { header: 'Automated resolution', width: 1.2, align: 'right' },
      { header: 'Satisfaction', width: 1, align: 'right' },
    ],
    view.trends.map((m) => [monthLabel(m.month), formatCount(m.conversations), formatCount(m.messages), formatRate(m.automatedResolutionRate), formatSatisfaction(m.satisfaction)]),
  );

  return report.finish('Parley · Analytics & Insights');
}

export interface SummaryReportOptions {
  /** The client the summary covers; null: every client. */
  clientName: string | null;
}

const TOPIC_TYPE_LABELS: Record<SummaryView['insights'][number]['type'], string> = { trending: 'Trending', common: 'Common', escalation: 'Escalation' };

/** A topic's change against the period before: "+50%", "-20%", "0%", or "new" when it had none. */
function topicTrend(trend: number | null): string {
  if (trend === null) return 'new';
  const percent = Math.round(trend * 100);
  return percent === 0 ? '0%' : `${percent > 0 ? '+' : '-'}${Math.abs(percent)}%`;
}

/** The AI Summary report. */
export function drawSummaryReport(view: SummaryView, { clientName }: SummaryReportOptions): Promise<Buffer> {
  const report = new ReportDocument('AI Summary', new Date(view.generatedAt));
  const { overview } = view;
  report.title('AI Summary', [
    describeReportPeriod(view.period, view.timeZone),
    `Client: ${clientName ?? 'All clients'}`,
    `Figures as of ${formatInstant(view.generatedAt, view.timeZone)} (times in ${view.timeZone}).`,
  ]);
  report.cards(
    [
      { label: 'Total conversations', value: formatCount(overview.totalConversations), detail: 'Started in the period' },
      { label: 'Avg response time', value: formatDuration(overview.averageResponseTime), detail: 'Mean time to the first reply' },
      { label: 'AI confidence', value: formatRate(overview.aiConfidence), detail: "Mean of the AI's replies to questions" },
      { label: 'Escalation rate', value: formatRate(overview.escalationRate), detail: 'Handed to a person at least once' },
      {
        label: 'Customer satisfaction',
        value: formatSatisfaction(overview.customerSatisfaction),
        detail: overview.customerSatisfaction === null ? 'Nobody rated these conversations' : 'Mean rating, 1 to 5',
      },
    ],
    5,
  );

  report.heading('AI insights: what customers asked');
  if (view.insights.length === 0) report.note('No customer questions in this period.');
  else {
    report.note('Each question is counted under the knowledge-base entry the AI agent matched first; questions it matched to none are grouped apart.');
    report.table(
      [
        { header: 'Topic', width: 3 },
        { header: 'Type', width: 1.1 },
        { header: 'Questions', width: 1, align: 'right' },
        { header: 'Change', width: 0.9, align: 'right' },
        { header: 'Confidence', width: 1, align: 'right' },
        { header: 'Answered by the AI', width: 1.1, align: 'right' },
        { header: 'Handed to a person', width: 1.1, align: 'right' },
      ],
      view.insights.map((t) => [
        t.missingFromKnowledgeBase ? `${t.title} (missing from the knowledge base)` : t.title,
        TOPIC_TYPE_LABELS[t.type],
        formatCount(t.count),
        topicTrend(t.trend),
        formatRate(t.confidence),
        formatCount(t.answered),
        formatCount(t.handedOff),
      ]),
    );
    for (const topic of view.insights.filter((t) => t.examples.length > 0)) {
      report.note(`${topic.title}, in the customers' words:`);
      for (const example of topic.examples) report.note(`   “${example}”`);
    }
  }

  report.heading('Performance by time of day', 160);
  const hours = view.performance.byTimeOfDay;
  report.columns(
    `Conversations started per hour of the day (${view.timeZone})`,
    hours.map((h) => ({ label: h.label.slice(0, 2), value: h.conversations })),
    (v) => formatCount(v),
  );
  const busyHours = hours.filter((h) => h.conversations > 0);
  if (busyHours.length === 0) report.note('No conversations in this period.');
  else {
    report.table(
      [
        { header: 'Hour', width: 1 },
        { header: 'Conversations', width: 1, align: 'right' },
        { header: 'AI confidence', width: 1, align: 'right' },
      ],
      busyHours.map((h) => [h.label, formatCount(h.conversations), formatRate(h.confidence)]),
    );
    report.note('Hours without conversations are left out of the table.');
  }

  report.heading('Performance by channel');
  const channels = view.performance.byChannel;
  if (channels.length === 0) report.note('No conversations in this period.');
  else {
    report.bars('Conversations started, by channel', channels.map((c) => ({ label: c.label, value: c.conversations })), (v) => formatCount(v));
    report.table(
      [
        { header: 'Channel', width: 1.4 },
        { header: 'Conversations', width: 1, align: 'right' },
        { header: 'AI confidence', width: 1, align: 'right' },
      ],
      channels.map((c) => [c.label, formatCount(c.conversations), formatRate(c.confidence)]),
    );
  }

  return report.finish('Parley · AI Summary');
}
