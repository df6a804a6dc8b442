import { describe, expect, it } from 'vitest';
import { AUTH_PAGES } from '@common/prerender';
import { isSitePage, PAGE_ROUTES, type PageName } from '@common/routes';
import { UPCOMING } from '@/features/upcoming/content';
import { APP_PAGE_META } from './meta/app-meta';
import { AUTH_PAGE_META } from './meta/auth-meta';
import { PLAIN_PAGE_META } from './meta/plain-meta';
import { PUBLIC_PAGE_META } from './meta/public-meta';
import { SITE_PAGE_META } from './meta/site-meta';
import { PAGE_LAYOUT } from './page-layouts';
import { AUTH_SCREENS, PAGE_COMPONENTS, UPCOMING_PAGES } from './pages';

const names = Object.keys(PAGE_ROUTES) as PageName[];
const metaOf = (name: PageName) =>
  ({ ...SITE_PAGE_META, ...PUBLIC_PAGE_META, ...AUTH_PAGE_META, ...APP_PAGE_META, ...PLAIN_PAGE_META })[name];

describe('the page table', () => {
  it('gives every page of common/routes.ts a screen, a layout and its own title and description', () => {
    const titles = new Set<string>();
    for (const name of names) {
      expect(PAGE_COMPONENTS[name], name).toBeDefined();
      expect(PAGE_LAYOUT[name], name).toBeDefined();
      const meta = metaOf(name);
      expect(meta.title.length, name).toBeGreaterThan(0);
      expect(meta.description.length, name).toBeGreaterThan(20);
      titles.add(`${meta.title}|${meta.description}`);
    }
    expect(titles.size).toBe(names.length);
  });

  it('renders exactly the site pages on the server', () => {
    for (const name of names) expect(PAGE_LAYOUT[name] === 'site', name).toBe(isSitePage(name));
  });

  it('pre-renders exactly the pages of the auth layout, each with a preloadable screen', () => {
    expect([...AUTH_PAGES].sort()).toEqual(names.filter((name) => PAGE_LAYOUT[name] === 'auth').sort());
    for (const name of AUTH_PAGES) {
      expect(PAGE_COMPONENTS[name], name).toBe(AUTH_SCREENS[name]);
      expect(typeof AUTH_SCREENS[name].preload, name).toBe('function');
    }
  });

  it('keeps every guarded page out of the public and auth layouts', () => {
    for (const name of names) {
      if (PAGE_ROUTES[name].access !== 'public') expect(PAGE_LAYOUT[name], name).toBe('app');
    }
  });

  it('gives every page that is not built yet one sentence saying so, and no header subtitle', () => {
    const first = UPCOMING_PAGES[0];
    const upcoming = first === undefined ? undefined : PAGE_COMPONENTS[first];
    for (const name of names) {
      const isUpcoming = UPCOMING_PAGES.includes(name);
      expect(PAGE_COMPONENTS[name] === upcoming, name).toBe(isUpcoming);
      if (isUpcoming) {
        expect(UPCOMING[name]?.notice, name).toMatch(/^[\w &-]+ (is|are) not available yet\.$/u);
        expect(metaOf(name), name).not.toHaveProperty('subtitle');
      }
    }
  });
});
