import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { roleChangeBlocked, roleChangeFailure } from './role-change';

const admin = { id: 'a', role: 'admin' as const };

describe('roleChangeBlocked', () => {
  it('refuses a non-admin with "Access Denied"', () => {
    expect(roleChangeBlocked({ id: 'm', role: 'manager' }, 'x')).toEqual({
      title: 'Access Denied',
      description: 'Only administrators can modify user roles.',
    });
  });

  it('refuses one’s own role with "Invalid Operation"', () => {
    expect(roleChangeBlocked(admin, 'a')).toEqual({
      title: 'Invalid Operation',
      description: 'You cannot modify your own role.',
    });
  });

  it('lets an admin change someone else', () => {
    expect(roleChangeBlocked(admin, 'b')).toBeNull();
  });
});

describe('roleChangeFailure', () => {
  it('maps the last-admin refusal', () => {
    const error = new ApiError('CONFLICT', 'Cannot remove the last administrator from the system.', 409, {
      details: { reason: 'last_admin' },
    });
    expect(roleChangeFailure(error)).toEqual({
      title: 'Operation Not Allowed',
      description: 'Cannot remove the last administrator from the system.',
    });
  });

  it('maps the own-role refusal', () => {
    const error = new ApiError('BAD_REQUEST', 'You cannot modify your own role.', 400, { details: { reason: 'own_role' } });
    expect(roleChangeFailure(error).title).toBe('Invalid Operation');
  });

  it('maps a non-admin caller to "Access Denied" and other refusals to "Permission Denied"', () => {
    expect(roleChangeFailure(new ApiError('FORBIDDEN', 'Only administrators can modify user roles.', 403)).title).toBe(
      'Access Denied',
    );
    expect(roleChangeFailure(new ApiError('FORBIDDEN', 'Forbidden', 403)).title).toBe('Permission Denied');
    expect(roleChangeFailure(new ApiError('CSRF_FAILED', 'Missing token', 403)).description).toBe(
      "You don't have permission to update user roles.",
    );
  });

  it('falls back to "Update Failed"', () => {
    expect(roleChangeFailure(new ApiError('INTERNAL', 'Internal server error', 500))).toEqual({
      title: 'Update Failed',
      description: 'Failed to update user role. Please try again.',
    });
    expect(roleChangeFailure(new Error('network'))).toEqual({
      title: 'Update Failed',
      description: 'Failed to update user role. Please try again.',
    });
  });
});
