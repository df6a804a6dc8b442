import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { type changePasswordInput } from '@common/api/auth';
import { okResponse } from '@common/api/me';
import { apiRequest } from '@/lib/api-client';
import { profileKeys } from './keys';

export type ChangePasswordValues = z.output<typeof changePasswordInput>;

export function changePassword(values: ChangePasswordValues) {
  return apiRequest('/api/v1/me/password', okResponse, { method: 'POST', body: values });
}

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePassword,
    retry: false,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: profileKeys.sessions }),
  });
}
