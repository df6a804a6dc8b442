import { PAGE_ROUTES, type PageName } from '@common/routes';

/** The canonical path of a page (the first of its aliases in common/routes.ts). */
export function pathOf(name: PageName): string {
  return PAGE_ROUTES[name].paths[0];
}
