/**
 * What a bench group reports: rows of one table (figure | measured | goal | baseline | verdict)
 * and free-text notes. A row with a goal gets its verdict from the number it carries, so adding a
 * figure for a later issue is one `row()` call.
 */

export type Verdict = 'met' | 'MISSED' | 'info' | 'skipped' | 'ERROR';

export interface Goal {
  /** As printed, e.g. "≤ 3 s". */
  text: string;
  /** The goal holds when value ≤ max (and/or ≥ min), in the unit of `Row.value`. */
  max?: number;
  min?: number;
}

export interface RowInput {
  figure: string;
  /** As printed, e.g. "1.62 s (1.55–1.80, n=5)". */
  measured: string;
  /** The number the goal is checked against (same unit as the goal); absent → no verdict. */
  value?: number;
  goal?: Goal;
  baseline?: string;
  /** Overrides the computed verdict (skipped, ERROR). */
  verdict?: Verdict;
}

export interface Row extends RowInput {
  group: string;
  verdict: Verdict;
  /** Measured while other work kept the machine busy (printed as a * after the verdict). */
  noisy?: boolean;
}

export interface Note {
  group: string;
  text: string;
}

export function verdictOf(input: RowInput): Verdict {
  if (input.verdict) return input.verdict;
  if (!input.goal) return 'info';
  if (input.value === undefined || !Number.isFinite(input.value)) return 'ERROR';
  const { max, min } = input.goal;
  const ok = (max === undefined || input.value <= max) && (min === undefined || input.value >= min);
  return ok ? 'met' : 'MISSED';
}

export class Report {
  readonly rows: Row[] = [];
  readonly notes: Note[] = [];

  markNoisy(group: string): void {
    for (const row of this.rows) if (row.group === group) row.noisy = true;
  }

  /** A reporter bound to one group; what it adds survives if the group later throws. */
  forGroup(group: string): GroupReporter {
    return {
      row: (input) => {
        const row: Row = { ...input, group, verdict: verdictOf(input) };
        this.rows.push(row);
        console.log(`  ${row.figure}: ${row.measured}${row.baseline ? `  (baseline ${row.baseline})` : ''}  [${row.verdict}]`);
      },
      note: (text) => {
        this.notes.push({ group, text });
        console.log(`  note: ${text}`);
      },
      progress: (text) => console.log(`  … ${text}`),
    };
  }
}

export interface GroupReporter {
  row(input: RowInput): void;
  note(text: string): void;
  /** A line on the console only (not in the table or the document). */
  progress(text: string): void;
}

export const HEADERS = ['figure', 'measured', 'goal', 'baseline (same run)', 'verdict'] as const;

function cells(row: Row): string[] {
  return [row.figure, row.measured, row.goal?.text ?? '–', row.baseline ?? '–', `${row.verdict}${row.noisy ? '*' : ''}`];
}

/** A plain-text table for the terminal, with group headings. */
export function textTable(rows: readonly Row[]): string {
  const all = [HEADERS as readonly string[], ...rows.map(cells)];
  const widths = HEADERS.map((_, i) => Math.max(...all.map((r) => [...(r[i] ?? '')].length)));
  const pad = (r: readonly string[]) => r.map((c, i) => c + ' '.repeat(widths[i]! - [...c].length)).join(' │ ');
  const rule = widths.map((w) => '─'.repeat(w)).join('─┼─');
  const lines = [pad(HEADERS), rule];
  let group: string | undefined;
  for (const row of rows) {
    if (row.group !== group) {
      group = row.group;
      lines.push(`[${group}]`);
    }
    lines.push(pad(cells(row)));
  }
  return lines.join('\n');
}

function mdCell(text: string): string {
  return text.replaceAll('|', '\\|');
}

export function markdownTable(rows: readonly Row[]): string {
  const lines = [`| group | ${HEADERS.join(' | ')} |`, `|${' --- |'.repeat(HEADERS.length + 1)}`];
  for (const row of rows) {
    const mark = row.noisy ? '\\*' : '';
    const verdict = row.verdict === 'MISSED' || row.verdict === 'ERROR' ? `**${row.verdict}**${mark}` : `${row.verdict}${mark}`;
    lines.push(`| ${[row.group, ...cells(row).slice(0, -1), verdict].map(mdCell).join(' | ')} |`);
  }
  return lines.join('\n');
}
