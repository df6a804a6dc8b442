/**
 * The signed-in user, shared by every page. Public pages read it too (top navigation), so this
 * module stays tiny and keeps zod out of their bundle: the signed-out answer `{ user: null }` is
 * recognised directly and a signed-in answer is parsed with the contract's schema, loaded lazily.
 */
import { useSyncExternalStore } from 'react';
import type { CurrentUser } from '@common/api/users';

export type SessionState =
  | { status: 'loading' }
  | { status: 'error'; error: Error }
  /** `signedOut` is true when the user just signed out on purpose (no "come back to" origin). */
  | { status: 'ready'; user: CurrentUser | null; signedOut: boolean };

const SESSION_PATH = '/api/v1/auth/session';

let state: SessionState = { status: 'loading' };
let inflight: Promise<CurrentUser | null> | null = null;
const listeners = new Set<() => void>();

function setState(next: SessionState): void {
  state = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getSessionState(): SessionState {
  return state;
}

function isSignedOutBody(body: unknown): boolean {
  return typeof body === 'object' && body !== null && 'user' in body && body.user === null;
}

async function fetchSession(): Promise<CurrentUser | null> {
  const response = await fetch(SESSION_PATH, { credentials: 'include', headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`Could not load the session (HTTP ${response.status})`);
  const body: unknown = await response.json();
  if (isSignedOutBody(body)) return null;
  const { sessionResponse } = await import('@common/api/auth');
  return sessionResponse.parse(body).user;
}

/** Loads the session once (and again after `refreshSession`); safe to call from many places. */
export function loadSession(): Promise<CurrentUser | null> {
  inflight ??= fetchSession().then(
    (user) => {
      setState({ status: 'ready', user, signedOut: false });
      return user;
    },
    (error: unknown) => {
      inflight = null;
      setState({ status: 'error', error: error instanceof Error ? error : new Error(String(error)) });
      throw error;
    },
  );
  return inflight;
}

export function refreshSession(): Promise<CurrentUser | null> {
  inflight = null;
  return loadSession();
}

/** After sign-in, a profile change or 2FA change: the server's answer becomes the session. */
export function setSessionUser(user: CurrentUser): void {
  inflight = Promise.resolve(user);
  setState({ status: 'ready', user, signedOut: false });
}

/** The user signed out on purpose: guarded pages send them to /login without an origin. */
export function markSignedOut(): void {
  inflight = Promise.resolve(null);
  setState({ status: 'ready', user: null, signedOut: true });
}

/** The server said the session is gone (401): guarded pages send them to /login and remember where. */
export function markSessionExpired(): void {
  if (state.status === 'ready' && state.user === null) return;
  inflight = Promise.resolve(null);
  setState({ status: 'ready', user: null, signedOut: false });
}

/**
 * The server answered 403 TWO_FACTOR_REQUIRED: this admin or manager must set up two-factor
 * authentication first (Admin Settings → Security). The guard shows only the setup until a fresh
 * session says otherwise.
 */
export function markTwoFactorSetupRequired(): void {
  if (state.status !== 'ready' || state.user === null || state.user.twoFactorSetupRequired === true) return;
  const user = { ...state.user, twoFactorSetupRequired: true };
  inflight = Promise.resolve(user);
  setState({ status: 'ready', user, signedOut: false });
}

export function useSession(): SessionState {
  return useSyncExternalStore(subscribe, getSessionState, getSessionState);
}

/** The signed-in user; only for components rendered behind the guard. */
export function useCurrentUser(): CurrentUser {
  const session = useSession();
  if (session.status !== 'ready' || session.user === null) {
    throw new Error('useCurrentUser needs a signed-in user (render it behind the route guard)');
  }
  return session.user;
}
