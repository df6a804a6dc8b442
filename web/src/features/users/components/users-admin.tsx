import { useState } from 'react';
import { isRole, ROLES, roleLabel, type Role } from '@common/roles';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { SearchInput } from '@/components/ui/search-input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { errorMessage } from '@/lib/api-client';
import { useUsers } from '../api/get-users';
import { CreateUserDialog } from './create-user-dialog';
import { UsersTable } from './users-table';

const ALL = 'all';

export function UsersAdmin({ actor }: { actor: { id: string; role: Role } }) {
  const [search, setSearch] = useState('');
  const [role, setRole] = useState<Role | undefined>(undefined);
  const debounced = useDebouncedValue(search, 250);
  const users = useUsers({ search: debounced.trim() || undefined, role });

  return (
    <div className="grid gap-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex flex-1 flex-col gap-2 sm:flex-row">
          <SearchInput
            wrapperClassName="sm:w-72"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            placeholder="Search by name or email..."
            aria-label="Search users"
          />
          <Select value={role ?? ALL} onValueChange={(value) => setRole(isRole(value) ? value : undefined)}>
            <SelectTrigger className="sm:w-40" aria-label="Filter by role">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ALL}>All roles</SelectItem>
              {ROLES.map((r) => (
                <SelectItem key={r} value={r}>
                  {roleLabel(r)}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <CreateUserDialog />
      </div>
      <Card className="py-2">
        <CardContent className="px-2">
          {users.isPending ? (
            <div className="grid gap-2 p-2">
              <Skeleton className="h-10" />
              <Skeleton className="h-10" />
              <Skeleton className="h-10" />
            </div>
          ) : users.isError ? (
            <div className="grid justify-items-center gap-2 p-6 text-center text-sm text-muted-foreground">
              <p>{errorMessage(users.error, 'The user list could not be loaded.')}</p>
              <Button variant="outline" size="sm" onClick={() => void users.refetch()}>
                Try Again
              </Button>
            </div>
          ) : (
            <UsersTable users={users.data} actor={actor} />
          )}
        </CardContent>
      </Card>
    </div>
  );
}
