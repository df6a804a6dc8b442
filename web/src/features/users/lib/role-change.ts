/**
 * Role changes (spec part 1 §5 "Role change", §8): who may change what, and the toast for each
 * refusal. The server is the authority; the checks here only spare a doomed request.
 */
import { ROLE_CHANGE_MESSAGES, roleChangeRefusal } from '@common/api/users';
import type { Role } from '@common/roles';
import { isApiError } from '@/lib/api-client';

export interface ToastText {
  title: string;
  description: string;
}

export const ACCESS_DENIED: ToastText = { title: 'Access Denied', description: ROLE_CHANGE_MESSAGES.notAdmin };
export const INVALID_OPERATION: ToastText = { title: 'Invalid Operation', description: ROLE_CHANGE_MESSAGES.ownRole };
export const OPERATION_NOT_ALLOWED: ToastText = {
  title: 'Operation Not Allowed',
  description: ROLE_CHANGE_MESSAGES.lastAdmin,
};
export const PERMISSION_DENIED: ToastText = {
  title: 'Permission Denied',
  description: "You don't have permission to update user roles.",
};
export const UPDATE_FAILED: ToastText = {
  title: 'Update Failed',
  description: 'Failed to update user role. Please try again.',
};

/** A refusal known before asking the server, or null when the change may be tried. */
export function roleChangeBlocked(actor: { id: string; role: Role }, targetId: string): ToastText | null {
  if (actor.role !== 'admin') return ACCESS_DENIED;
  if (actor.id === targetId) return INVALID_OPERATION;
  return null;
}

export function roleChangeFailure(error: unknown): ToastText {
  if (!isApiError(error)) return UPDATE_FAILED;
  const reason = roleChangeRefusal.safeParse(error.reason);
  if (reason.success) {
    switch (reason.data) {
      case 'own_role':
        return INVALID_OPERATION;
      case 'last_admin':
        return OPERATION_NOT_ALLOWED;
    }
  }
  if (error.code === 'FORBIDDEN') {
    return error.message === ROLE_CHANGE_MESSAGES.notAdmin ? ACCESS_DENIED : PERMISSION_DENIED;
  }
  return error.code === 'CSRF_FAILED' ? PERMISSION_DENIED : UPDATE_FAILED;
}
