import { useMutation } from '@tanstack/react-query';
import { createdAutomation } from '@common/api/automations';
import { apiRequest } from '@/lib/api-client';

/** Admins only: a new signing secret, shown this once; the old one stops working. */
export function rotateSigningSecret(id: string) {
  return apiRequest(`/api/v1/automations/${encodeURIComponent(id)}/rotate-secret`, createdAutomation, { method: 'POST' });
}

export function useRotateSigningSecret() {
  return useMutation({ mutationFn: rotateSigningSecret, retry: false });
}
