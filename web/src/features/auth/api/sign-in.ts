import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { type signInInput, signInResponse } from '@common/api/auth';
import { apiRequest } from '@/lib/api-client';

export type SignInValues = z.output<typeof signInInput>;

export function signIn(values: SignInValues) {
  return apiRequest('/api/v1/auth/sign-in', signInResponse, { method: 'POST', body: values });
}

export function useSignIn() {
  // A failed sign-in counts towards the lockout: never repeat it on the user's behalf.
  return useMutation({ mutationFn: signIn, retry: false });
}
