import { useState } from 'react';
import { useSearchParams } from 'react-router';
import type { CurrentUser } from '@common/api/users';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { useLiveInbox } from '@/hooks/use-live-messaging';
import { cn } from '@/lib/cn';
import { useConversations } from '../api/find-conversations';
import { parseTab, type ConversationListTab } from '../lib/tabs';
import { ConversationList } from './conversation-list';
import { ConversationPanel } from './conversation-panel';
import { StartConversationDialog } from './start-conversation-dialog';

/**
 * Spec part 1 §2.15. The selected conversation and the tab live in the address (`?id=`, `?tab=`),
 * so links from the dashboard and /messages open a conversation and a reload keeps the view.
 * `?conversation=` opens one too: escalation notifications and e-mails link that way.
 */
export function ConversationsPage({ user }: { user: CurrentUser }) {
  useLiveInbox();
  const [params, setParams] = useSearchParams();
  const selectedId = params.get('id') ?? params.get('conversation');
  const tab = parseTab(params.get('tab'));
  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search.trim(), 250);
  const list = useConversations({ tab, search: debounced === '' ? undefined : debounced });
  const staff = user.role !== 'client';

  const setParam = (name: string, value: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === null) next.delete(name);
        else next.set(name, value);
        return next;
      },
      { replace: name === 'tab' },
    );

  return (
    <div className="grid gap-4 lg:h-[calc(100dvh-7.5rem)] lg:grid-cols-[minmax(18rem,24rem)_1fr]">
      <div className={cn('min-h-0 lg:flex', selectedId !== null ? 'hidden' : 'flex')}>
        <div className="flex min-h-0 w-full flex-col">
          <ConversationList
            tab={tab}
            onTabChange={(next: ConversationListTab) => setParam('tab', next === 'all' ? null : next)}
            search={search}
            onSearchChange={setSearch}
            query={list}
            selectedId={selectedId}
            showClient={staff}
            startDialog={<StartConversationDialog onStarted={(conversation) => setParam('id', conversation.id)} />}
          />
        </div>
      </div>
      <div className="flex min-h-0 flex-col">
        <ConversationPanel id={selectedId} userId={user.id} showClient={staff} />
      </div>
    </div>
  );
}
