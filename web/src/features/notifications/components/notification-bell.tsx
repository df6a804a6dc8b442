import { Bell } from 'lucide-react';
import { Link } from 'react-router';
import { cn } from '@/lib/cn';
import { useUnreadCount } from '../api/get-unread-count';
import { unreadBadgeText } from '../lib/badge';

/** The bell linking to /notifications; its badge is the real unread count, hidden at zero. */
export function NotificationBell({ className }: { className?: string }) {
  const { data: count = 0 } = useUnreadCount();
  const badge = unreadBadgeText(count);
  return (
    <Link
      to="/notifications"
      aria-label={badge ? `Notifications (${count} unread)` : 'Notifications'}
      className={cn(
        'relative inline-flex size-9 items-center justify-center rounded-md text-muted-foreground transition-colors hover:bg-accent hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none',
        className,
      )}
    >
      <Bell aria-hidden className="size-5" />
      {badge ? (
        <span
          data-testid="notification-badge"
          className="absolute -top-0.5 -right-0.5 flex h-4.5 min-w-4.5 items-center justify-center rounded-full bg-destructive px-1 text-[0.65rem] leading-none font-semibold text-destructive-foreground tabular-nums"
        >
          {badge}
        </span>
      ) : null}
    </Link>
  );
}
