/** The route guard's decision (spec part 1 §2.2, part 2 "Route access"), kept pure for tests. */
import { canOpen, type PageAccess } from '@common/routes';
import { loginPathFor } from '@/lib/redirect';
import type { SessionState } from '@/lib/session';

export type AccessDecision =
  | { kind: 'allow' }
  /** The session is still loading: render nothing yet. */
  | { kind: 'wait' }
  | { kind: 'redirect'; to: string }
  /** An admin or manager who must set up two-factor authentication first (Admin Settings → Security). */
  | { kind: 'two-factor-setup' }
  | { kind: 'error'; error: Error };

export interface LocationLike {
  pathname: string;
  search: string;
  hash: string;
}

export const UNAUTHORIZED_PATH = '/unauthorized';

export function decideAccess(access: PageAccess, session: SessionState, location: LocationLike): AccessDecision {
  if (access === 'public') return { kind: 'allow' };
  switch (session.status) {
    case 'loading':
      return { kind: 'wait' };
    case 'error':
      return { kind: 'error', error: session.error };
    case 'ready':
      break;
  }
  if (session.user === null) {
    // Signed out on purpose: no page to come back to. Otherwise remember where they were going.
    const origin = session.signedOut ? null : `${location.pathname}${location.search}${location.hash}`;
    return { kind: 'redirect', to: loginPathFor(origin) };
  }
  if (session.user.twoFactorSetupRequired === true) return { kind: 'two-factor-setup' };
  return canOpen(access, session.user.role) ? { kind: 'allow' } : { kind: 'redirect', to: UNAUTHORIZED_PATH };
}
