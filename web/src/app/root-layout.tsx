import { lazy, Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { ErrorBoundary } from '@/components/error-boundary';
import { ErrorFallback } from '@/features/errors/components/error-fallback';
import { noteLocation } from '@/lib/navigation-tracker';
import { useToasterWanted } from '@/lib/toaster-gate';

const Toaster = lazy(() => import('./toaster'));

function ScrollToTop() {
  const { pathname, hash } = useLocation();
  useEffect(() => {
    noteLocation(pathname);
    if (hash === '') window.scrollTo(0, 0);
  }, [pathname, hash]);
  return null;
}

export function RootLayout() {
  const { pathname } = useLocation();
  const toaster = useToasterWanted();
  return (
    <>
      <ScrollToTop />
      {/* Moving to another page clears a shown error, so one failure does not stick to the next page. */}
      <ErrorBoundary resetKey={pathname} fallback={(error) => <ErrorFallback error={error} />}>
        <Suspense fallback={null}>
          <Outlet />
        </Suspense>
      </ErrorBoundary>
      {toaster ? (
        <Suspense fallback={null}>
          <Toaster />
        </Suspense>
      ) : null}
    </>
  );
}
