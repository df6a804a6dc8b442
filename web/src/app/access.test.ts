import { describe, expect, it } from 'vitest';
import type { CurrentUser } from '@common/api/users';
import { PAGE_ROUTES } from '@common/routes';
import type { Role } from '@common/roles';
import type { SessionState } from '@/lib/session';
import { decideAccess } from './access';

const at = { pathname: '/admin/users', search: '?q=ann', hash: '' };

function signedIn(role: Role): SessionState {
  const user: CurrentUser = {
    id: '00000000-0000-4000-8000-000000000001',
    email: 'ann@example.com',
    name: 'Ann',
    role,
    avatarUrl: null,
    phone: null,
    company: null,
    clientId: null,
    emailVerified: true,
    mfaEnabled: false,
    createdAt: '2026-01-01T00:00:00.000Z',
    lastLogin: null,
  };
  return { status: 'ready', user, signedOut: false };
}

describe('decideAccess', () => {
  it('lets anyone open a public page, even before the session is known', () => {
    expect(decideAccess('public', { status: 'loading' }, at)).toEqual({ kind: 'allow' });
    expect(decideAccess(PAGE_ROUTES.home.access, { status: 'ready', user: null, signedOut: false }, at)).toEqual({
      kind: 'allow',
    });
  });

  it('renders nothing while the session loads on a guarded page', () => {
    expect(decideAccess('signed-in', { status: 'loading' }, at)).toEqual({ kind: 'wait' });
  });

  it('sends a signed-out visitor to /login remembering the page, query included', () => {
    expect(decideAccess(PAGE_ROUTES.adminUsers.access, { status: 'ready', user: null, signedOut: false }, at)).toEqual({
      kind: 'redirect',
      to: '/login?redirectTo=%2Fadmin%2Fusers%3Fq%3Dann',
    });
  });

  it('sends a user who just signed out to plain /login', () => {
    expect(decideAccess('signed-in', { status: 'ready', user: null, signedOut: true }, at)).toEqual({
      kind: 'redirect',
      to: '/login',
    });
  });

  it('sends a signed-in user without the role to /unauthorized', () => {
    expect(decideAccess(PAGE_ROUTES.adminUsers.access, signedIn('client'), at)).toEqual({
      kind: 'redirect',
      to: '/unauthorized',
    });
    expect(decideAccess(PAGE_ROUTES.adminUsers.access, signedIn('manager'), at)).toEqual({
      kind: 'redirect',
      to: '/unauthorized',
    });
  });

  it('opens admin pages to admins and staff pages to managers', () => {
    expect(decideAccess(PAGE_ROUTES.adminUsers.access, signedIn('admin'), at)).toEqual({ kind: 'allow' });
    expect(decideAccess(PAGE_ROUTES.agents.access, signedIn('manager'), at)).toEqual({ kind: 'allow' });
    expect(decideAccess(PAGE_ROUTES.agents.access, signedIn('client'), at).kind).toBe('redirect');
  });

  it('opens any signed-in page to every role', () => {
    for (const role of ['admin', 'manager', 'client'] as const) {
      expect(decideAccess(PAGE_ROUTES.profile.access, signedIn(role), at)).toEqual({ kind: 'allow' });
    }
  });

  it('shows only the two-factor setup to a user who must set it up first, on every guarded page', () => {
    const state = signedIn('manager');
    const pending: SessionState = state.status === 'ready' && state.user ? { ...state, user: { ...state.user, twoFactorSetupRequired: true } } : state;
    expect(decideAccess(PAGE_ROUTES.profile.access, pending, at)).toEqual({ kind: 'two-factor-setup' });
    expect(decideAccess(PAGE_ROUTES.adminUsers.access, pending, at)).toEqual({ kind: 'two-factor-setup' });
    // Public pages stay open.
    expect(decideAccess('public', pending, at)).toEqual({ kind: 'allow' });
    // Once it is on (the session no longer says so), pages open as before.
    const done: SessionState = state.status === 'ready' && state.user ? { ...state, user: { ...state.user, twoFactorSetupRequired: false } } : state;
    expect(decideAccess(PAGE_ROUTES.profile.access, done, at)).toEqual({ kind: 'allow' });
  });

  it('surfaces a failed session load to the error screen', () => {
    const error = new Error('down');
    expect(decideAccess('signed-in', { status: 'error', error }, at)).toEqual({ kind: 'error', error });
  });
});
