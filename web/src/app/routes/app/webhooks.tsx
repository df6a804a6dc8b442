import { useSearchParams } from 'react-router';
import { WEBHOOK_TABS, WebhooksScreen, type WebhookTab } from '@/features/hooks/components/webhooks-screen';
import { useCurrentUser } from '@/lib/session';

/** /webhooks (any signed-in user) and /admin/webhooks (admins): spec part 2 "Webhooks page"; the tab is in `?tab=`. */
export default function WebhooksRoute() {
  const { role } = useCurrentUser();
  const [params, setParams] = useSearchParams();
  const tab: WebhookTab = WEBHOOK_TABS.find((t) => t === params.get('tab')) ?? 'subscriptions';
  return (
    <WebhooksScreen
      role={role}
      tab={tab}
      onTabChange={(next) => {
        const search = new URLSearchParams(params);
        if (next === 'subscriptions') search.delete('tab');
        else search.set('tab', next);
        setParams(search, { replace: true });
      }}
    />
  );
}
