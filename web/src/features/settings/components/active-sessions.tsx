import { MonitorSmartphone } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import type { AdminSessionView } from '@common/api/security';
import { RoleBadge } from '@/components/role-badge';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { SearchInput } from '@/components/ui/search-input';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime, formatRelative } from '@/lib/format';
import { useAdminSessions, useRevokeAdminSession } from '../api/admin-sessions';

function SessionItem({ session, onRevoke }: { session: AdminSessionView; onRevoke: (session: AdminSessionView) => void }) {
  return (
    <li className="flex flex-wrap items-start gap-3 rounded-lg border p-3">
      <div className="grid min-w-0 flex-1 gap-0.5">
        <p className="flex flex-wrap items-center gap-2 text-sm font-medium">
          <span className="truncate">{session.userName || session.userEmail}</span>
          <RoleBadge role={session.userRole} />
          {session.current ? <Badge variant="success">This session</Badge> : null}
        </p>
        <p className="text-xs break-all text-muted-foreground">{session.userEmail}</p>
        <p className="text-xs text-muted-foreground">
          {session.ipAddress ?? 'Unknown address'} · active {formatRelative(session.lastActiveAt)} · ends {formatDateTime(session.expiresAt)}
        </p>
        {session.userAgent ? (
          <p className="truncate text-xs text-muted-foreground" title={session.userAgent}>
            {session.userAgent}
          </p>
        ) : null}
      </div>
      <Button variant="outline" size="sm" onClick={() => onRevoke(session)}>
        Revoke
      </Button>
    </li>
  );
}

/** Admin Settings → Security: every user's live sessions, most recently active first, each revocable at once. */
export function ActiveSessions() {
  const [search, setSearch] = useState('');
  const [applied, setApplied] = useState('');
  const [pending, setPending] = useState<AdminSessionView | null>(null);
  const sessions = useAdminSessions(applied);
  const revoke = useRevokeAdminSession();
  const rows = sessions.data?.pages.flatMap((page) => page.sessions) ?? [];

  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    setApplied(search.trim());
  };

  const confirmRevoke = () => {
    if (!pending) return;
    const session = pending;
    revoke.mutate(session.id, {
      onSuccess: () => toast.success('Session Revoked', { description: `${session.userName || session.userEmail} is signed out on that device.` }),
      onError: (error) => toast.error('Error', { description: errorMessage(error, 'Failed to revoke the session.') }),
      onSettled: () => setPending(null),
    });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <MonitorSmartphone aria-hidden className="size-4 text-primary" />
          Active Sessions
        </CardTitle>
        <CardDescription>Everyone signed in to Parley. A revoked session is signed out at once.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <form onSubmit={onSearch} role="search" className="flex flex-wrap gap-2">
          <SearchInput
            aria-label="Search sessions by user"
            placeholder="Name or e-mail"
            value={search}
            maxLength={254}
            onChange={(event) => setSearch(event.target.value)}
            wrapperClassName="min-w-0 flex-1"
          />
          <Button type="submit" variant="outline">
            Search
          </Button>
        </form>
        {sessions.isPending ? (
          <div className="grid gap-2" aria-label="Loading sessions">
            <Skeleton className="h-16" />
            <Skeleton className="h-16" />
          </div>
        ) : sessions.isError ? (
          <p className="text-sm text-muted-foreground">{errorMessage(sessions.error, 'Sessions could not be loaded.')}</p>
        ) : rows.length === 0 ? (
          <p className="rounded-lg border border-dashed p-4 text-sm text-muted-foreground">
            {applied ? 'No one matching this search is signed in.' : 'No one is signed in.'}
          </p>
        ) : (
          <>
            <ul className="grid gap-2" aria-label="Active sessions">
              {rows.map((session) => (
                <SessionItem key={session.id} session={session} onRevoke={setPending} />
              ))}
            </ul>
            {sessions.hasNextPage ? (
              <Button
                variant="outline"
                className="justify-self-center"
                disabled={sessions.isFetchingNextPage}
                onClick={() => void sessions.fetchNextPage()}
              >
                {sessions.isFetchingNextPage ? 'Loading...' : 'Load More'}
              </Button>
            ) : null}
          </>
        )}
      </CardContent>

      <AlertDialog
        open={pending !== null}
        onOpenChange={(open) => {
          if (!open && !revoke.isPending) setPending(null);
        }}
      >
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Revoke this session?</AlertDialogTitle>
            <AlertDialogDescription>
              {pending?.current
                ? 'This is your own session: you will be signed out here.'
                : `${pending?.userName || pending?.userEmail || 'This user'} is signed out on that device at once and must sign in again.`}
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel disabled={revoke.isPending}>Cancel</AlertDialogCancel>
            <AlertDialogAction
              disabled={revoke.isPending}
              onClick={(event) => {
                event.preventDefault();
                confirmRevoke();
              }}
            >
              {revoke.isPending ? 'Revoking...' : 'Revoke'}
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </Card>
  );
}
