import { queryOptions, useQuery } from '@tanstack/react-query';
import { findUsersResponse } from '@common/api/users';
import { ROLES, type Role } from '@common/roles';
import { apiRequest } from '@/lib/api-client';

export interface TeamSummary {
  total: number;
  byRole: Record<Role, number>;
  unverified: number;
}

export async function getTeamSummary(signal?: AbortSignal): Promise<TeamSummary> {
  const { users } = await apiRequest('/api/v1/users', findUsersResponse, { signal });
  const byRole = Object.fromEntries(ROLES.map((role) => [role, 0])) as Record<Role, number>;
  for (const user of users) byRole[user.role] += 1;
  return { total: users.length, byRole, unverified: users.filter((u) => u.status === 'unverified').length };
}

export function getTeamSummaryQueryOptions() {
  return queryOptions({ queryKey: ['dashboard', 'team-summary'], queryFn: ({ signal }) => getTeamSummary(signal) });
}

/** Admins only: the API refuses everyone else. */
export function useTeamSummary(enabled: boolean) {
  return useQuery({ ...getTeamSummaryQueryOptions(), enabled });
}
