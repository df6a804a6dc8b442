/**
 * `npm run bench -- --only=… --merge`: a subset run replaces its own groups' rows and notes in
 * docs/BENCHMARKS.md and keeps every other group's from the runs that measured them, saying which
 * groups were measured when, at which commit and on what machine (a later run may be on a slower
 * or faster machine: compare a row with its own baseline, not with the rows of another run).
 *
 * The document is the one `markdown()` in bench/run.ts writes; this module reads back only what it
 * needs from it: the results table's rows by group (first cell), the notes by group (the `###`
 * sections under "## Notes from this run"), the full run's machine lines and the list of later
 * runs merged in since.
 */

export interface PreviousDoc {
  /** "Last full run: …" as written. */
  fullRunLine: string;
  /** The full run's machine lines (without the leading "- "). */
  machine: string[];
  /** Runs merged in since the full run, one entry per run, newest last (their markdown lines). */
  merged: string[][];
  /** Results table rows (as written), by group title. */
  rows: Map<string, string[]>;
  /** Notes (the lines under a group's `###`, as written), by group title. */
  notes: Map<string, string[]>;
}

export const MERGED_HEADING = '### Groups measured again since the full run';

/** The lines under `heading` up to the next heading of its level or above (and, for the machine, up to the merged runs' list). */
function section(lines: readonly string[], heading: string): string[] {
  const start = lines.indexOf(heading);
  if (start < 0) return [];
  const level = heading.indexOf(' ');
  const out: string[] = [];
  for (const line of lines.slice(start + 1)) {
    const hashes = /^(#+) /u.exec(line)?.[1]?.length;
    if (hashes !== undefined && (hashes <= level || line === MERGED_HEADING)) break;
    out.push(line);
  }
  return out;
}

/** The first cell of a table row, unescaped (`mdCell` escapes `|`). */
function firstCell(row: string): string {
  const match = /^\|\s((?:[^|\\]|\\.)*?)\s\|/u.exec(row);
  return (match?.[1] ?? '').replaceAll('\\|', '|');
}

/** Reads back what a merge keeps from the document `markdown()` wrote; undefined when it is not one. */
export function parseDoc(text: string): PreviousDoc | undefined {
  const lines = text.split('\n');
  const fullRunLine = lines.find((line) => line.startsWith('Last full run: '));
  if (!fullRunLine || !lines.includes('## Results')) return undefined;

  const machine = section(lines, '## Machine')
    .filter((line) => line.startsWith('- '))
    .map((line) => line.slice(2));
  const merged: string[][] = [];
  for (const line of section(lines, MERGED_HEADING)) {
    if (line.startsWith('- ')) merged.push([line]);
    else if (line.startsWith('  ') && merged.length) merged.at(-1)!.push(line);
  }

  const rows = new Map<string, string[]>();
  for (const line of section(lines, '## Results')) {
    if (!line.startsWith('| ') || line.startsWith('| group |') || /^\|( --- \|)+$/u.test(line)) continue;
    const group = firstCell(line);
    rows.set(group, [...(rows.get(group) ?? []), line]);
  }

  const notes = new Map<string, string[]>();
  let current: string | undefined;
  for (const line of section(lines, '## Notes from this run')) {
    if (line.startsWith('### ')) {
      current = line.slice(4);
      notes.set(current, []);
    } else if (current !== undefined && line.startsWith('- ')) {
      notes.get(current)!.push(line);
    }
  }
  return { fullRunLine, machine, merged, rows, notes };
}

export interface MergeInput {
  previous: PreviousDoc;
  /** Every group's title in the bench's order. */
  order: readonly string[];
  /** This run's group titles, its table rows and notes by group (as markdown lines). */
  measured: readonly string[];
  rows: Map<string, string[]>;
  notes: Map<string, string[]>;
  /** This run's line for the "measured again" list: when, which commit, which groups, how fast the machine was. */
  runLine: string;
  /** This run's machine lines. */
  machine: readonly string[];
}

export interface Merged {
  fullRunLine: string;
  machine: string[];
  merged: string[][];
  /** Table rows in the bench's group order. */
  rows: string[];
  /** Notes by group, in the bench's group order (groups without notes left out). */
  notes: [string, string[]][];
}

/** The previous document with this run's groups replaced. */
export function mergeDoc(input: MergeInput): Merged {
  const { previous, measured } = input;
  const ran = new Set(measured);
  const pick = <T>(group: string, ours: Map<string, T>, theirs: Map<string, T>) => (ran.has(group) ? ours.get(group) : theirs.get(group));
  // Groups the previous document has that the bench no longer knows are dropped; groups it lacks stay absent until measured.
  const rows = input.order.flatMap((group) => pick(group, input.rows, previous.rows) ?? []);
  const notes = input.order.flatMap((group): [string, string[]][] => {
    const lines = pick(group, input.notes, previous.notes);
    return lines?.length ? [[group, lines]] : [];
  });
  const run = [`- ${input.runLine}`, ...input.machine.map((line) => `  - ${line}`)];
  return { fullRunLine: previous.fullRunLine, machine: previous.machine, merged: [...previous.merged, run], rows, notes };
}
