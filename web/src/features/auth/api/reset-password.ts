import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { type resetPasswordInput } from '@common/api/auth';
import { okResponse } from '@common/api/me';
import { apiRequest } from '@/lib/api-client';

export type ResetPasswordValues = z.output<typeof resetPasswordInput>;

export function resetPassword(values: ResetPasswordValues) {
  return apiRequest('/api/v1/auth/reset-password', okResponse, { method: 'POST', body: values });
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword, retry: false });
}
