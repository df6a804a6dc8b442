import type { SessionUser } from './access';

/** Whose data a query may read: one client's, or (null) every client's. */
export interface Scope {
  /** null: every client (admins and managers). */
  clientId: string | null;
}

/** No client has this id: a client user not yet attached to a client sees nothing. */
const NO_CLIENT = '00000000-0000-0000-0000-000000000000';

/** Admins and managers see every client; client users only their own. */
export function scopeFor(user: SessionUser): Scope {
  if (user.role === 'admin' || user.role === 'manager') return { clientId: null };
  return { clientId: user.clientId ?? NO_CLIENT };
}
