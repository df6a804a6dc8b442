import { lazy, type ReactNode, Suspense } from 'react';
import { Navigate, useLocation } from 'react-router';
import { findPage } from '@common/routes';
import { useSession } from '@/lib/session';
import { decideAccess } from './access';

// Only staff who must set up two-factor ever load it.
const TwoFactorSetupScreen = lazy(() => import('./routes/two-factor-setup'));

/** Renders its children only for visitors allowed on the current page (common/routes.ts). */
export function RequireAccess({ children }: { children: ReactNode }) {
  const location = useLocation();
  const session = useSession();
  const page = findPage(location.pathname);
  if (!page) return children;
  const decision = decideAccess(page.route.access, session, location);
  switch (decision.kind) {
    case 'allow':
      return children;
    case 'wait':
      // Spec part 1 §6: while permissions load, nothing renders.
      return null;
    case 'redirect':
      return <Navigate to={decision.to} replace />;
    case 'two-factor-setup':
      // Every page of the app waits until two-factor is on (the server refuses the rest anyway).
      return (
        <Suspense fallback={null}>
          <TwoFactorSetupScreen />
        </Suspense>
      );
    case 'error':
      throw decision.error;
  }
}
