import type { SessionUser } from '../../http/access';
import type { Scope } from './conversations.repository';

/** No client has this id: a client user not yet attached to a client sees nothing. */
const NO_CLIENT = '00000000-0000-0000-0000-000000000000';

/** Admins and managers see every client; client users only their own. */
export function scopeFor(user: SessionUser): Scope {
  if (user.role === 'admin' || user.role === 'manager') return { clientId: null };
  return { clientId: user.clientId ?? NO_CLIENT };
}
