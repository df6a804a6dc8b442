/** Titles and descriptions of the standalone pages. */
import type { PageMeta, PagesOf } from '../page-layouts';

export const PLAIN_PAGE_META: Record<PagesOf<'plain'>, PageMeta> = {
  unauthorized: { title: 'Access Denied', description: 'You do not have permission to open this page.' },
  sharedSummary: { title: 'Shared AI Summary', description: 'A read-only AI Summary shared from Parley: overview, topics, performance and trends.' },
  invitation: { title: 'Accept Your Invitation', description: 'Join your business on Parley: set your name and a password.' },
};

export const NOT_FOUND_META: PageMeta = {
  title: 'Page Not Found',
  description: 'The page you were looking for does not exist.',
};
