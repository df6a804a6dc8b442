import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { PAGE_ROUTES } from '@common/routes';
import { UPCOMING, UPCOMING_FALLBACK } from '@/features/upcoming/content';
import { UpcomingScreen } from '@/features/upcoming/components/upcoming-screen';
import { UPCOMING_PAGES } from '../../pages';
import UpcomingRoute from './upcoming';

const render = (path: string) =>
  renderToStaticMarkup(
    <MemoryRouter initialEntries={[path]}>
      <UpcomingRoute />
    </MemoryRouter>,
  );

const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/gu, ' ')
    .replace(/&amp;/gu, '&')
    .replace(/\s+/gu, ' ')
    .trim();

describe('screens that are not built yet', () => {
  it('the shared screen says one sentence and offers no controls', () => {
    const html = renderToStaticMarkup(<UpcomingScreen content={undefined} />);
    expect(textOf(html)).toBe(UPCOMING_FALLBACK);
    expect(html).not.toMatch(/<(button|a|input|select|textarea)\b/u);
  });

  const routes = UPCOMING_PAGES.flatMap((name) => PAGE_ROUTES[name].paths.map((path) => [path, name] as const));

  it.each(routes)('%s says only that the feature is not available yet', (path, name) => {
    const html = render(path);
    expect(textOf(html)).toBe(UPCOMING[name]?.notice);
    // No controls at all: nothing to create, run or test on a screen that does not exist.
    expect(html).not.toMatch(/<(button|a|input|select|textarea)\b/u);
    expect(textOf(html)).not.toMatch(/create|once|first|set up|sample|will/iu);
  });
});
