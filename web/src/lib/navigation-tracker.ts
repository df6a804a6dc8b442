/**
 * Tells a page whether it is the document the browser loaded or a client-side navigation. The
 * server already logs an unknown path it is asked for, so the 404 page reports only the others.
 */
const documentPath = window.location.pathname;
let navigated = false;

export function noteLocation(pathname: string): void {
  if (pathname !== documentPath) navigated = true;
}

export function isDocumentLoad(pathname: string): boolean {
  return !navigated && pathname === documentPath;
}
