import { useMutation } from '@tanstack/react-query';
import { sentTestEmail, type SendTestEmailInput } from '@common/api/readiness';
import { apiRequest } from '@/lib/api-client';

/** POST /api/v1/readiness/test-email: a test e-mail over SMTP to the signed-in admin (or `to`). */
export function sendTestEmail(input: SendTestEmailInput = {}) {
  return apiRequest('/api/v1/readiness/test-email', sentTestEmail, { method: 'POST', body: input });
}

export function useSendTestEmail() {
  return useMutation({ mutationFn: sendTestEmail, retry: false });
}
