import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { signInResponse, type twoFactorVerifyInput } from '@common/api/auth';
import { apiRequest } from '@/lib/api-client';

export type TwoFactorVerifyValues = z.output<typeof twoFactorVerifyInput>;

export function verifyTwoFactor(values: TwoFactorVerifyValues) {
  return apiRequest('/api/v1/auth/two-factor/verify', signInResponse, { method: 'POST', body: values });
}

export function useVerifyTwoFactor() {
  return useMutation({ mutationFn: verifyTwoFactor, retry: false });
}
