import { useMutation } from '@tanstack/react-query';
import { sentResponse } from '@common/api/auth';
import { apiRequest } from '@/lib/api-client';

export function resendVerification(email: string) {
  return apiRequest('/api/v1/auth/resend-verification', sentResponse, { method: 'POST', body: { email } });
}

export function useResendVerification() {
  return useMutation({ mutationFn: resendVerification, retry: false });
}
