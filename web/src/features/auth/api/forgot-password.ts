import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { type forgotPasswordInput, sentResponse } from '@common/api/auth';
import { apiRequest } from '@/lib/api-client';

export type ForgotPasswordValues = z.output<typeof forgotPasswordInput>;

export function requestPasswordReset(values: ForgotPasswordValues) {
  return apiRequest('/api/v1/auth/forgot-password', sentResponse, { method: 'POST', body: values });
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset, retry: false });
}
