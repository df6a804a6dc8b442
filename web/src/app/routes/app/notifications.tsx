import { NotificationsList } from '@/features/notifications/components/notifications-list';

export default function NotificationsRoute() {
  return (
    <div className="mx-auto max-w-3xl">
      <NotificationsList />
    </div>
  );
}
