import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { type updateProfileInput } from '@common/api/me';
import { currentUser } from '@common/api/users';
import { apiRequest } from '@/lib/api-client';
import { setSessionUser } from '@/lib/session';

export type UpdateProfileValues = z.output<typeof updateProfileInput>;

export function updateProfile(values: UpdateProfileValues) {
  return apiRequest('/api/v1/me/profile', currentUser, { method: 'PATCH', body: values });
}

export function useUpdateProfile() {
  return useMutation({
    mutationFn: updateProfile,
    // The sidebar and header show the name and avatar: the answer becomes the session's user.
    onSuccess: setSessionUser,
  });
}
