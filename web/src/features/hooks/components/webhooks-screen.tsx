import { Plus, Webhook } from 'lucide-react';
import { useState } from 'react';
import type { SubscriptionView } from '@common/api/hooks';
import type { Role } from '@common/roles';
import { Button } from '@/components/ui/button';
import { LoadError } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { errorMessage } from '@/lib/api-client';
import { useSubscriptions } from '../api/find-subscriptions';
import { DeliveryLog } from './delivery-log';
import { SigningSecretDialog } from './signing-secret-dialog';
import { SubscriptionCard } from './subscription-card';
import { SubscriptionFormDialog } from './subscription-form-dialog';
import { WebhookTestForm } from './webhook-test-form';
import { WebhooksGuide } from './webhooks-guide';

export const WEBHOOK_TABS = ['subscriptions', 'test', 'guide'] as const;
export type WebhookTab = (typeof WEBHOOK_TABS)[number];

export const NO_SUBSCRIPTIONS = 'No webhook subscriptions yet';
export const NO_SUBSCRIPTIONS_TEXT =
  'A subscription sends the events you choose — new messages, escalations, leads, finished automations — to your URL as signed JSON as they happen, ready for n8n, Zapier or your own server.';

/** The empty list: says what a subscription does, and offers to add one. */
export function NoSubscriptions({ onAdd }: { onAdd: () => void }) {
  return (
    <div className="grid justify-items-center gap-3 rounded-xl border border-dashed px-6 py-12 text-center">
      <span className="flex size-12 items-center justify-center rounded-full bg-muted">
        <Webhook aria-hidden className="size-6 text-muted-foreground" />
      </span>
      <h2 className="text-lg font-semibold">{NO_SUBSCRIPTIONS}</h2>
      <p className="max-w-prose text-sm text-muted-foreground">{NO_SUBSCRIPTIONS_TEXT}</p>
      <Button onClick={onAdd}>
        <Plus aria-hidden />
        Add Subscription
      </Button>
    </div>
  );
}

function Subscriptions({ role }: { role: Role }) {
  // Admins and managers see every client's subscriptions: the list says whose each one is.
  const showClient = role !== 'client';
  const subscriptions = useSubscriptions();
  const [form, setForm] = useState<{ open: boolean; subscription?: SubscriptionView | undefined; opening: number }>({ open: false, opening: 0 });
  const [logId, setLogId] = useState<string | null>(null);
  const [secret, setSecret] = useState<{ value: string; title: string } | null>(null);

  const openForm = (subscription?: SubscriptionView) => setForm((f) => ({ open: true, subscription, opening: f.opening + 1 }));
  const list = subscriptions.data ?? [];
  const logOf = list.find((s) => s.id === logId) ?? null;

  return (
    <div className="grid min-w-0 gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-muted-foreground">
          {showClient ? "Every client's webhook subscriptions and their deliveries." : "Where Parley sends your business's events, and how each delivery went."}
        </p>
        {list.length > 0 ? (
          <Button onClick={() => openForm()}>
            <Plus aria-hidden />
            Add Subscription
          </Button>
        ) : null}
      </div>

      {subscriptions.isPending ? (
        <div className="grid gap-3">
          <Skeleton className="h-40" />
          <Skeleton className="h-40" />
        </div>
      ) : subscriptions.isError ? (
        <LoadError message={errorMessage(subscriptions.error, 'The webhook subscriptions could not be loaded.')} onRetry={() => void subscriptions.refetch()} />
      ) : list.length === 0 ? (
        <NoSubscriptions onAdd={() => openForm()} />
      ) : (
        <ul aria-label="Webhook subscriptions" className="grid min-w-0 gap-3 xl:grid-cols-2">
          {list.map((subscription) => (
            <SubscriptionCard
              key={subscription.id}
              subscription={subscription}
              showClient={showClient}
              onEdit={() => openForm(subscription)}
              onOpenLog={() => setLogId(subscription.id)}
              onSecret={(value) => setSecret({ value, title: 'New Signing Secret' })}
            />
          ))}
        </ul>
      )}

      <SubscriptionFormDialog
        key={form.opening}
        open={form.open}
        subscription={form.subscription}
        role={role}
        onOpenChange={(open) => setForm((f) => ({ ...f, open }))}
        onCreated={(value) => setSecret({ value, title: 'Subscription Created' })}
      />
      <DeliveryLog key={logId ?? 'none'} subscription={logOf} onClose={() => setLogId(null)} />
      <SigningSecretDialog secret={secret?.value ?? null} title={secret?.title ?? ''} onClose={() => setSecret(null)} />
    </div>
  );
}

/**
 * /webhooks (any signed-in user) and /admin/webhooks (admins): spec part 2 "Webhooks page" — the
 * subscriptions ("configured webhooks") with their delivery logs, the test form, and a guide.
 * The server decides what each user sees; the page only hides the client choice from non-admins.
 */
export function WebhooksScreen({ role, tab, onTabChange }: { role: Role; tab: WebhookTab; onTabChange: (tab: WebhookTab) => void }) {
  return (
    <Tabs value={tab} onValueChange={(value) => onTabChange(WEBHOOK_TABS.find((t) => t === value) ?? 'subscriptions')} className="min-w-0">
      <TabsList>
        <TabsTrigger value="subscriptions">Subscriptions</TabsTrigger>
        <TabsTrigger value="test">Test</TabsTrigger>
        <TabsTrigger value="guide">Guide</TabsTrigger>
      </TabsList>
      <TabsContent value="subscriptions" className="min-w-0">
        <Subscriptions role={role} />
      </TabsContent>
      <TabsContent value="test" className="min-w-0">
        <WebhookTestForm />
      </TabsContent>
      <TabsContent value="guide" className="min-w-0">
        <WebhooksGuide />
      </TabsContent>
    </Tabs>
  );
}
