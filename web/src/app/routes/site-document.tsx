import { useEffect } from 'react';
import { useLocation } from 'react-router';

/** The URL this document was loaded from (not the URL a link inside the app moved to). */
function documentUrl(): string | undefined {
  const [entry] = performance.getEntriesByType('navigation');
  return entry?.name;
}

/**
 * A page of the server-rendered site (common/routes.ts SITE_PAGES) reached by a link inside the
 * web app: the browser loads it from the server, which answers with the page's HTML. When the
 * document itself came from this URL (a server without the site renderer answered with the app),
 * loading it again would loop: the page says so instead.
 */
export default function SiteDocument() {
  const { pathname, search, hash } = useLocation();
  const target = `${pathname}${search}${hash}`;
  const loadedHere = documentUrl() === window.location.href;
  useEffect(() => {
    if (!loadedHere) window.location.replace(target);
  }, [loadedHere, target]);
  if (!loadedHere) return null;
  return (
    <main className="mx-auto flex min-h-dvh max-w-lg flex-col items-center justify-center gap-3 px-4 text-center">
      <h1 className="text-2xl font-bold">This page could not be loaded</h1>
      <p className="text-muted-foreground">The server did not render the public site. Try again in a moment.</p>
    </main>
  );
}
