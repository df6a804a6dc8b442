import { Bell, CheckCheck } from 'lucide-react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import type { Notification } from '@common/api/me';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { formatRelative } from '@/lib/format';
import { useNotifications } from '../api/get-notifications';
import { useMarkAllNotificationsRead } from '../api/mark-all-notifications-read';
import { useMarkNotificationRead } from '../api/mark-notification-read';

export function NotificationsList() {
  const notifications = useNotifications();
  const markRead = useMarkNotificationRead();
  const markAll = useMarkAllNotificationsRead();

  if (notifications.isPending) {
    return (
      <div className="grid gap-3" aria-busy="true">
        <Skeleton className="h-16" />
        <Skeleton className="h-16" />
      </div>
    );
  }
  if (notifications.isError) {
    return (
      <EmptyState icon={Bell} title="Notifications could not be loaded">
        <p>{errorMessage(notifications.error, 'Please try again.')}</p>
        <Button variant="outline" className="mt-3" onClick={() => void notifications.refetch()}>
          Try Again
        </Button>
      </EmptyState>
    );
  }

  const { notifications: items, unreadCount } = notifications.data;
  if (items.length === 0) {
    return (
      <EmptyState icon={Bell} title="No notifications yet">
        <p>Escalated conversations and other updates for you appear here.</p>
      </EmptyState>
    );
  }

  const onMarkRead = (item: Notification) => {
    markRead.mutate(item.id, {
      onSuccess: () => toast.success('Marked as Read'),
      onError: (error) => toast.error('Error', { description: errorMessage(error, 'Failed to mark as read') }),
    });
  };

  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-muted-foreground">
          {unreadCount === 0 ? 'All caught up.' : `${unreadCount} unread`}
        </p>
        <Button
          variant="outline"
          size="sm"
          disabled={unreadCount === 0 || markAll.isPending}
          onClick={() =>
            markAll.mutate(undefined, {
              onSuccess: () => toast.success('Marked as Read', { description: 'All notifications are marked as read.' }),
              onError: (error) => toast.error('Error', { description: errorMessage(error, 'Failed to mark as read') }),
            })
          }
        >
          <CheckCheck aria-hidden />
          Mark all as read
        </Button>
      </div>
      <ul className="grid gap-3" aria-label="Notifications">
        {items.map((item) => (
          <li key={item.id}>
            <Card className={cn('gap-2 py-4', !item.read && 'border-primary/40')}>
              <CardContent className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
                <div className="grid gap-1">
                  <p className="flex items-center gap-2 font-medium">
                    {!item.read ? <span className="size-2 rounded-full bg-primary" aria-label="Unread" /> : null}
                    {item.title}
                  </p>
                  {item.body ? <p className="text-sm text-muted-foreground">{item.body}</p> : null}
                  <p className="text-xs text-muted-foreground">
                    <time dateTime={item.createdAt}>{formatRelative(item.createdAt)}</time>
                    {item.link?.startsWith('/') ? (
                      <>
                        {' · '}
                        <Link to={item.link} className="text-primary hover:underline">
                          Open
                        </Link>
                      </>
                    ) : null}
                  </p>
                </div>
                {!item.read ? (
                  <Button variant="ghost" size="sm" onClick={() => onMarkRead(item)} disabled={markRead.isPending}>
                    Mark as read
                  </Button>
                ) : null}
              </CardContent>
            </Card>
          </li>
        ))}
      </ul>
    </div>
  );
}
