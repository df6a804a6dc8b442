import type { ReactNode } from 'react';
import type { CurrentUser } from '@common/api/users';
import { roleLabel } from '@common/roles';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { formatDate, formatDateTime } from '@/lib/format';

export function AccountDetails({ user }: { user: CurrentUser }) {
  const rows: readonly [string, ReactNode][] = [
    ['Status', <Badge key="status" variant={user.emailVerified ? 'success' : 'warning'}>{user.emailVerified ? 'Active' : 'Pending verification'}</Badge>],
    ['Account Type', `${roleLabel(user.role)} Account`],
    ['User ID', <code key="id" className="font-mono text-xs break-all">{user.id}</code>],
    ['Account Created', formatDate(user.createdAt)],
    ['Last Login', formatDateTime(user.lastLogin)],
    ['Two-Factor Authentication', user.mfaEnabled ? 'On' : 'Off'],
  ];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Account Information</CardTitle>
        <CardDescription>Details of your Parley account.</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-3 sm:grid-cols-2">
          {rows.map(([label, value]) => (
            <div key={label} className="grid gap-1 rounded-lg border p-3">
              <dt className="text-xs text-muted-foreground">{label}</dt>
              <dd className="text-sm font-medium">{value}</dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}
