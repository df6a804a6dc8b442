import { Suspense } from 'react';
import { Outlet, useLocation } from 'react-router';
import { findPage } from '@common/routes';
import { ErrorBoundary } from '@/components/error-boundary';
import { Head } from '@/components/seo/head';
import { Spinner } from '@/components/ui/spinner';
import { ChatsButton } from '@/features/chats/components/chats-button';
import { ErrorFallback } from '@/features/errors/components/error-fallback';
import { NotificationBell } from '@/features/notifications/components/notification-bell';
import { AppShell } from '@/features/shell/components/app-shell';
import { useUnreadMessageCount } from '@/features/messages/api/get-unread-count';
import { useLiveInbox } from '@/hooks/use-live-messaging';
import { useRealtimeConnection } from '@/hooks/use-realtime';
import { useSignOut } from '@/lib/auth';
import { realtimeClient } from '@/lib/realtime';
import { useCurrentUser } from '@/lib/session';
import { APP_PAGE_META } from '../meta/app-meta';
import { metaFor } from '../page-layouts';
import { AppProviders } from '../providers/app-providers';

function Shell() {
  const user = useCurrentUser();
  const { pathname } = useLocation();
  const signOut = useSignOut();
  const meta = metaFor(APP_PAGE_META, findPage(pathname)?.name);
  // One live connection while signed in: pages subscribe to it, and it is what shows the user online in chats.
  useRealtimeConnection();
  // The manager's Messages link carries the real unread count (docs/DECISIONS.md), kept live.
  const isManager = user.role === 'manager';
  useLiveInbox(isManager);
  const unreadMessages = useUnreadMessageCount(isManager).data ?? 0;

  return (
    <AppShell
      user={user}
      title={meta?.title ?? 'Parley'}
      subtitle={meta?.subtitle}
      headerActions={
        <>
          <ChatsButton user={user} />
          <NotificationBell />
        </>
      }
      onSignOut={() => signOut.mutate(undefined, { onSuccess: () => realtimeClient().reset() })}
      signingOut={signOut.isPending}
      navBadges={isManager ? { '/messages': unreadMessages } : undefined}
    >
      {meta ? <Head title={meta.title} description={meta.description} /> : null}
      <ErrorBoundary resetKey={pathname} fallback={(error) => <ErrorFallback error={error} />}>
        <Suspense
          fallback={
            <div className="flex justify-center py-16">
              <Spinner />
            </div>
          }
        >
          <Outlet />
        </Suspense>
      </ErrorBoundary>
    </AppShell>
  );
}

/** Every signed-in page: rendered behind RequireAccess, so a user is always present here. */
export default function AppLayout() {
  return (
    <AppProviders>
      <Shell />
    </AppProviders>
  );
}
