/**
 * The hero stats card (spec part 1 §3 hero stat, §7 calls): the editable rows, whether they differ
 * from what is stored, and what a move or a toggle asks of the server.
 */
import { HERO_STATS_MAX, type HeroStat } from '@common/api/content';
import { HERO_STAT_TOASTS } from './feedback';

export interface StatRow {
  /** Absent for a row added here and not saved yet. */
  id?: string | undefined;
  /** A stable React key, also for new rows. */
  key: string;
  number: string;
  label: string;
  isActive: boolean;
}

export function rowsOf(stats: readonly HeroStat[]): StatRow[] {
  return [...stats]
    .sort((a, b) => a.order - b.order)
    .map((stat) => ({ id: stat.id, key: stat.id, number: stat.number, label: stat.label, isActive: stat.isActive }));
}

/** True when the rows hold something the server does not: unsaved edits, additions or removals. */
export function rowsDiffer(rows: readonly StatRow[], stats: readonly HeroStat[]): boolean {
  const stored = rowsOf(stats);
  if (rows.length !== stored.length) return true;
  return rows.some((row, i) => {
    const other = stored[i];
    return !other || row.id !== other.id || row.number !== other.number || row.label !== other.label || row.isActive !== other.isActive;
  });
}

export const canAdd = (rows: readonly StatRow[]) => rows.length < HERO_STATS_MAX;
export const canRemove = (rows: readonly StatRow[]) => rows.length > 1;

/** The 0-based position a move up (-1) or down (+1) asks for, or null at either end. */
export function movedPosition(index: number, direction: -1 | 1, count: number): number | null {
  const next = index + direction;
  return next < 0 || next >= count ? null : next;
}

/** The toast of a toggle, by the state the stat ends in. */
export const toggledToast = (isActive: boolean) => (isActive ? HERO_STAT_TOASTS.shown : HERO_STAT_TOASTS.hidden);

/** The save body: the rows in display order (ids kept, so stored stats are updated, not replaced). */
export function toSaveBody(rows: readonly StatRow[]): { id?: string; number: string; label: string; isActive: boolean }[] {
  return rows.map((row) => ({ ...(row.id ? { id: row.id } : {}), number: row.number, label: row.label, isActive: row.isActive }));
}

/** Server errors like `stats.2.label` by row index and field. */
export function statFieldErrors(fields: Record<string, string> | undefined): { rows: Record<number, { number?: string; label?: string }>; list?: string } {
  const rows: Record<number, { number?: string; label?: string }> = {};
  let list: string | undefined;
  for (const [path, message] of Object.entries(fields ?? {})) {
    const match = /^stats\.(\d+)\.(number|label)$/u.exec(path);
    if (match) {
      const index = Number(match[1]);
      const field = match[2] as 'number' | 'label';
      rows[index] = { ...rows[index], [field]: rows[index]?.[field] ?? message };
    } else list ??= message;
  }
  return list === undefined ? { rows } : { rows, list };
}
