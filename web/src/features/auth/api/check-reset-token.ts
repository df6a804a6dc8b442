import { queryOptions, useQuery } from '@tanstack/react-query';
import { resetCheckResponse } from '@common/api/auth';
import { apiRequest } from '@/lib/api-client';

export function checkResetToken(token: string, signal?: AbortSignal) {
  return apiRequest('/api/v1/auth/reset-password/check', resetCheckResponse, {
    method: 'POST',
    body: { token },
    signal,
  });
}

export function checkResetTokenQueryOptions(token: string) {
  return queryOptions({
    queryKey: ['auth', 'reset-token', token],
    queryFn: ({ signal }) => checkResetToken(token, signal),
    retry: false,
    staleTime: 0,
    gcTime: 0,
  });
}

export function useCheckResetToken(token: string) {
  return useQuery({ ...checkResetTokenQueryOptions(token), enabled: token !== '' });
}
