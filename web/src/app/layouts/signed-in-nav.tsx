import { QueryClientProvider } from '@tanstack/react-query';
import { LayoutDashboard, LogOut } from 'lucide-react';
import { Link } from 'react-router';
import type { CurrentUser } from '@common/api/users';
import { Button } from '@/components/ui/button';
import { NotificationBell } from '@/features/notifications/components/notification-bell';
import { useSignOut } from '@/lib/auth';
import { queryClient } from '@/lib/query-client';
import { useRequestToaster } from '@/lib/toaster-gate';

function Account({ user, variant }: { user: CurrentUser; variant: 'desktop' | 'mobile' }) {
  const signOut = useSignOut();
  const mobile = variant === 'mobile';
  return (
    <div className={mobile ? 'flex flex-col gap-2' : 'flex items-center gap-2'}>
      <div className="flex items-center gap-2">
        <NotificationBell />
        <span className="max-w-48 truncate text-sm text-muted-foreground">Welcome, {user.name || user.email}</span>
      </div>
      <Button asChild variant="outline" size="sm" className={mobile ? 'w-full' : undefined}>
        <Link to="/dashboard">
          <LayoutDashboard aria-hidden />
          Dashboard
        </Link>
      </Button>
      <Button
        variant="ghost"
        size="sm"
        className={mobile ? 'w-full' : undefined}
        onClick={() => signOut.mutate()}
        disabled={signOut.isPending}
      >
        <LogOut aria-hidden />
        Sign Out
      </Button>
    </div>
  );
}

/** The signed-in end of the public top navigation (spec part 1 §2.3), with the real unread count. */
export default function SignedInNav({ user, variant }: { user: CurrentUser; variant: 'desktop' | 'mobile' }) {
  useRequestToaster();
  return (
    <QueryClientProvider client={queryClient}>
      <Account user={user} variant={variant} />
    </QueryClientProvider>
  );
}
