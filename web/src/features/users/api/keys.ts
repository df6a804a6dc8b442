import type { Role } from '@common/roles';

export interface UsersFilter {
  search?: string | undefined;
  role?: Role | undefined;
}

export const userKeys = {
  all: ['users'] as const,
  list: (filter: UsersFilter) => [...userKeys.all, 'list', filter] as const,
};
