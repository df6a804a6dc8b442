/** Turning two-factor authentication on and off (POST /api/v1/me/two-factor/*). */
import { useMutation } from '@tanstack/react-query';
import { backupCodesResponse, twoFactorSetup, twoFactorStatusResponse } from '@common/api/me';
import { apiRequest } from '@/lib/api-client';
import { refreshSession } from '@/lib/session';

export function enableTwoFactor(password: string) {
  return apiRequest('/api/v1/me/two-factor/enable', twoFactorSetup, { method: 'POST', body: { password } });
}

export function confirmTwoFactor(code: string) {
  return apiRequest('/api/v1/me/two-factor/confirm', twoFactorStatusResponse, { method: 'POST', body: { code } });
}

export function disableTwoFactor(password: string) {
  return apiRequest('/api/v1/me/two-factor/disable', twoFactorStatusResponse, { method: 'POST', body: { password } });
}

export function regenerateBackupCodes(password: string) {
  return apiRequest('/api/v1/me/two-factor/backup-codes', backupCodesResponse, { method: 'POST', body: { password } });
}

/** The session's user carries `mfaEnabled`: reload it after a change. */
function reloadUser(): Promise<unknown> {
  return refreshSession().catch(() => undefined);
}

export function useEnableTwoFactor() {
  return useMutation({ mutationFn: enableTwoFactor, retry: false });
}

export function useConfirmTwoFactor() {
  return useMutation({ mutationFn: confirmTwoFactor, retry: false, onSuccess: reloadUser });
}

export function useDisableTwoFactor() {
  return useMutation({ mutationFn: disableTwoFactor, retry: false, onSuccess: reloadUser });
}

export function useRegenerateBackupCodes() {
  return useMutation({ mutationFn: regenerateBackupCodes, retry: false });
}
