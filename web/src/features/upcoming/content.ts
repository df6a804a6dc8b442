/**
 * Screens whose features are not built yet. Until one is, its screen says exactly that and nothing
 * else (docs/DECISIONS.md "Screens not built yet"): no promise of what will appear, no sample
 * numbers, no buttons that do nothing. The page keeps its spec title in the header.
 */
import type { LucideIcon } from 'lucide-react';
import type { PageName } from '@common/routes';

export interface UpcomingContent {
  icon: LucideIcon;
  /** The one sentence the screen shows: "<Feature> is not available yet." */
  notice: string;
}

/** Each page of `UPCOMING_PAGES` (app/pages.tsx) with its sentence; none at the moment. */
export const UPCOMING: Partial<Record<PageName, UpcomingContent>> = {};

/** For a page listed as upcoming without its own sentence. */
export const UPCOMING_FALLBACK = 'This page is not available yet.';
