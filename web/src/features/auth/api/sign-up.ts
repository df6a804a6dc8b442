import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { type signUpInput, signUpResponse } from '@common/api/auth';
import { apiRequest } from '@/lib/api-client';

export type SignUpValues = z.output<typeof signUpInput>;

export function signUp(values: SignUpValues) {
  return apiRequest('/api/v1/auth/sign-up', signUpResponse, { method: 'POST', body: values });
}

export function useSignUp() {
  return useMutation({ mutationFn: signUp, retry: false });
}
