import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { findUsersResponse } from '@common/api/users';
import { apiRequest } from '@/lib/api-client';
import { userKeys, type UsersFilter } from './keys';

export function getUsers(filter: UsersFilter, signal?: AbortSignal) {
  return apiRequest('/api/v1/users', findUsersResponse, {
    query: { search: filter.search?.trim(), role: filter.role },
    signal,
  }).then((r) => r.users);
}

export function getUsersQueryOptions(filter: UsersFilter) {
  return queryOptions({
    queryKey: userKeys.list(filter),
    queryFn: ({ signal }) => getUsers(filter, signal),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}

export function useUsers(filter: UsersFilter) {
  return useQuery(getUsersQueryOptions(filter));
}
