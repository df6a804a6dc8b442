/** Titles and descriptions of the public pages the web app renders (the site's are in ./site-meta). */
import type { PageMeta, PagesOf } from '../page-layouts';

export const PUBLIC_PAGE_META: Record<PagesOf<'public'>, PageMeta> = {
  clientSignup: {
    title: 'Get Started',
    description: 'Choose an AI automation for your business and get started with Parley.',
  },
};
