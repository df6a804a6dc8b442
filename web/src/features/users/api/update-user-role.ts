import { useMutation, useQueryClient } from '@tanstack/react-query';
import { userSummary } from '@common/api/users';
import type { Role } from '@common/roles';
import { apiRequest } from '@/lib/api-client';
import { userKeys } from './keys';

export interface UpdateUserRoleValues {
  id: string;
  role: Role;
}

export function updateUserRole({ id, role }: UpdateUserRoleValues) {
  return apiRequest(`/api/v1/users/${encodeURIComponent(id)}/role`, userSummary, {
    method: 'PATCH',
    body: { role },
  });
}

export function useUpdateUserRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUserRole,
    retry: false,
    onSettled: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}
