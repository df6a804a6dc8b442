import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { type createUserInput, userSummary } from '@common/api/users';
import { apiRequest } from '@/lib/api-client';
import { userKeys } from './keys';

export type CreateUserValues = z.output<typeof createUserInput>;

export function createUser(values: CreateUserValues) {
  return apiRequest('/api/v1/users', userSummary, { method: 'POST', body: values });
}

export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUser,
    retry: false,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}
