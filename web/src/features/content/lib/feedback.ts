/**
 * What the content panel says after each action: the spec's toasts (part 2 §8, part 1 §244) and
 * the texts of conflicts, sanitising warnings and revisions.
 */
import { conflictMessage, SECTION_LABELS, type ContentSectionKey, type SavedSection } from '@common/api/content';
import { errorMessage, isApiError } from '@/lib/api-client';

export interface Feedback {
  title: string;
  description?: string | undefined;
}

export const BLOG_TOASTS = {
  created: { title: 'Post created', description: 'Blog post has been created successfully' },
  updated: { title: 'Post updated', description: 'Blog post has been updated successfully' },
  deleted: { title: 'Post deleted', description: 'Blog post has been deleted successfully' },
} as const satisfies Record<string, Feedback>;

export const HERO_STAT_TOASTS = {
  updated: 'Stats Updated',
  reordered: 'Stats Reordered',
  hidden: 'Stat Hidden',
  shown: 'Stat Shown',
} as const;

export const CONTACT_TOASTS = {
  deleted: 'Message deleted',
  replied: 'Reply sent',
} as const;

/** A 409: someone saved since this editor loaded what it edits. */
export function isConflict(error: unknown): boolean {
  return isApiError(error) && (error.status === 409 || error.code === 'CONFLICT');
}

/** The conflict text of a section: the server's message, else the contract's. */
export function sectionConflictText(section: ContentSectionKey, error: unknown): string {
  return isApiError(error) && error.message.trim() !== '' ? error.message : conflictMessage(section);
}

export const POST_CONFLICT_TEXT = 'Someone else saved this post since you opened it. Reload to see their changes, then apply yours again.';

/** The conflict text of a post: the server's message, else ours. */
export function postConflictText(error: unknown): string {
  return isApiError(error) && error.message.trim() !== '' ? error.message : POST_CONFLICT_TEXT;
}

/** Field paths of a section as people read them: `services.2.features` → "services 3 › features". */
export function readablePath(path: string): string {
  return path
    .replace(/^data\./u, '')
    .split('.')
    .map((part) => (/^\d+$/u.test(part) ? String(Number(part) + 1) : part))
    .join(' › ');
}

/**
 * After a save whose text the server sanitised: which fields changed, heavily changed ones first.
 * Null when nothing was changed.
 */
export function sanitizedWarning(saved: Pick<SavedSection, 'sanitized' | 'heavilySanitized'>): Feedback | null {
  const heavy = saved.heavilySanitized;
  const light = saved.sanitized.filter((path) => !heavy.includes(path));
  if (heavy.length === 0 && light.length === 0) return null;
  const parts: string[] = [];
  if (heavy.length > 0) parts.push(`Much of the text was removed from ${heavy.map(readablePath).join(', ')}.`);
  if (light.length > 0) parts.push(`Unsafe text (angle brackets, script links or event handlers) was removed from ${light.map(readablePath).join(', ')}.`);
  parts.push('The editor now shows what was saved.');
  return { title: heavy.length > 0 ? 'Saved, but much of the text was removed' : 'Saved with unsafe text removed', description: parts.join(' ') };
}

export const REVISION_KIND_LABELS = { save: 'Saved', reset: 'Reset to defaults', restore: 'Restored' } as const;

export function revisionKindText(revision: { kind: keyof typeof REVISION_KIND_LABELS; restoredFrom: number | null }): string {
  if (revision.kind === 'restore' && revision.restoredFrom !== null) return `Restored version ${revision.restoredFrom}`;
  return REVISION_KIND_LABELS[revision.kind];
}

export function restoredToast(section: ContentSectionKey, version: number): Feedback {
  return { title: 'Revision restored', description: `${SECTION_LABELS[section]} content from version ${version} is live again.` };
}

/** A failure toast: the server's message when it gave one. */
export function failure(title: string, error: unknown, fallback: string): Feedback {
  return { title, description: errorMessage(error, fallback) };
}
