import { Laptop, LogOut } from 'lucide-react';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { formatRelative } from '@/lib/format';
import { useSessions } from '../api/get-sessions';
import { useRevokeOtherSessions } from '../api/revoke-other-sessions';
import { useRevokeSession } from '../api/revoke-session';
import { describeUserAgent } from '../lib/user-agent';

export function SessionsCard() {
  const sessions = useSessions();
  const revoke = useRevokeSession();
  const revokeOthers = useRevokeOtherSessions();
  const others = sessions.data?.filter((s) => !s.current).length ?? 0;

  return (
    <Card>
      <CardHeader>
        <CardTitle>Active Sessions</CardTitle>
        <CardDescription>Devices signed in to your account. Revoke any you do not recognise.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {sessions.isPending ? (
          <Skeleton className="h-16" />
        ) : sessions.isError ? (
          <p className="text-sm text-muted-foreground">{errorMessage(sessions.error, 'Sessions could not be loaded.')}</p>
        ) : (
          <ul className="grid gap-2" aria-label="Sessions">
            {sessions.data.map((session) => (
              <li key={session.id} className="flex flex-wrap items-center gap-3 rounded-lg border p-3">
                <Laptop aria-hidden className="size-5 text-muted-foreground" />
                <div className="grid min-w-0 flex-1 gap-0.5">
                  <p className="flex flex-wrap items-center gap-2 text-sm font-medium">
                    {describeUserAgent(session.userAgent)}
                    {session.current ? <Badge variant="success">This device</Badge> : null}
                  </p>
                  <p className="text-xs text-muted-foreground">
                    {session.ipAddress ?? 'Unknown address'} · active {formatRelative(session.lastActiveAt)}
                  </p>
                </div>
                {!session.current ? (
                  <Button
                    variant="outline"
                    size="sm"
                    disabled={revoke.isPending}
                    onClick={() =>
                      revoke.mutate(session.id, {
                        onSuccess: () => toast.success('Session Revoked', { description: 'That device is signed out.' }),
                        onError: (error) =>
                          toast.error('Error', { description: errorMessage(error, 'Failed to revoke the session.') }),
                      })
                    }
                  >
                    Revoke
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
        )}
        <div>
          <Button
            variant="outline"
            disabled={others === 0 || revokeOthers.isPending}
            onClick={() =>
              revokeOthers.mutate(undefined, {
                onSuccess: () =>
                  toast.success('Other Sessions Signed Out', { description: 'Only this device is still signed in.' }),
                onError: (error) =>
                  toast.error('Error', { description: errorMessage(error, 'Failed to sign out the other sessions.') }),
              })
            }
          >
            <LogOut aria-hidden />
            Sign out other sessions
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
