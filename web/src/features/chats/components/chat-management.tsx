import { ArrowLeft, MessagesSquare } from 'lucide-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { SearchInput } from '@/components/ui/search-input';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { useLiveChats } from '@/hooks/use-live-messaging';
import { errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import type { ChatsFilter } from '@/lib/messaging-keys';
import { useChats } from '../api/find-chats';
import { ChatConversation } from './chat-conversation';
import { ChatThreadList } from './chat-thread-list';
import { NewChatDialog } from './new-chat-dialog';

const TABS: { value: ChatsFilter['tab']; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'clients', label: 'Clients' },
  { value: 'admin', label: 'Admin' },
];

function Counter({ label, value }: { label: string; value: number | undefined }) {
  return (
    <div className="flex flex-col-reverse rounded-lg border bg-muted/40 px-3 py-2">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-lg font-semibold tabular-nums">{value ?? '—'}</dd>
    </div>
  );
}

/** Spec part 2 "Admin chat management": internal chats between Parley's admins and client users. */
export function ChatManagement({ userId }: { userId: string }) {
  useLiveChats();
  const [params, setParams] = useSearchParams();
  const selectedId = params.get('chat');
  const [tab, setTab] = useState<ChatsFilter['tab']>('all');
  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search.trim(), 250);
  const chats = useChats({ tab, search: debounced === '' ? undefined : debounced });
  // The selected chat stays open when a filter hides it from the list.
  const all = useChats({ tab: 'all' });
  const selected = [...(chats.data?.threads ?? []), ...(all.data?.threads ?? [])].find((t) => t.id === selectedId);
  const select = (id: string) => setParams({ chat: id });

  return (
    <div className="grid gap-4 lg:h-[calc(100dvh-7.5rem)] lg:grid-cols-[minmax(18rem,24rem)_1fr]">
      <section aria-label="Chat list" className={cn('min-h-0 flex-col gap-3 rounded-xl border bg-card p-3 lg:flex', selectedId ? 'hidden' : 'flex')}>
        <NewChatDialog className="w-full" onCreated={(thread) => select(thread.id)} />
        <dl className="grid grid-cols-2 gap-2">
          <Counter label="Total" value={all.data?.total} />
          <Counter label="Unread" value={all.data?.unread} />
        </dl>
        <SearchInput
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          placeholder="Search by name or company..."
          aria-label="Search chats"
        />
        <Tabs value={tab} onValueChange={(value) => setTab(value as ChatsFilter['tab'])} className="gap-0">
          <TabsList className="w-full">
            {TABS.map((t) => (
              <TabsTrigger key={t.value} value={t.value} className="flex-1">
                {t.label}
              </TabsTrigger>
            ))}
          </TabsList>
        </Tabs>
        <div className="-mx-1 min-h-0 flex-1 overflow-y-auto px-1">
          {chats.isPending ? (
            <div className="grid gap-2">
              <Skeleton className="h-16" />
              <Skeleton className="h-16" />
            </div>
          ) : chats.isError ? (
            <div className="grid justify-items-center gap-2 p-6 text-center text-sm text-muted-foreground">
              <p>{errorMessage(chats.error, 'The chats could not be loaded.')}</p>
              <Button variant="outline" size="sm" onClick={() => void chats.refetch()}>
                Try Again
              </Button>
            </div>
          ) : chats.data.threads.length === 0 ? (
            <p className="p-6 text-center text-sm text-muted-foreground">
              {debounced !== '' || tab !== 'all' ? 'No chats match.' : 'No chats yet. Start one with New Chat.'}
            </p>
          ) : (
            <ChatThreadList threads={chats.data.threads} selectedId={selectedId} onSelect={select} />
          )}
        </div>
      </section>
      <div className={cn('min-h-[28rem] flex-col overflow-hidden rounded-xl border bg-card lg:flex', selectedId ? 'flex' : 'hidden')}>
        {selectedId ? (
          <Button variant="ghost" size="sm" className="m-2 mb-0 w-fit lg:hidden" onClick={() => setParams({})}>
            <ArrowLeft aria-hidden />
            Back to chats
          </Button>
        ) : null}
        {selected ? (
          <ChatConversation key={selected.id} thread={selected} userId={userId} />
        ) : selectedId && (chats.isPending || all.isPending) ? (
          <Skeleton className="m-4 h-24" />
        ) : (
          <EmptyState icon={MessagesSquare} title={selectedId ? 'Chat not found' : 'Select a chat'} className="m-4 flex-1">
            {selectedId ? 'This chat does not exist or you do not take part in it.' : 'Choose a chat from the list, or start a new one.'}
          </EmptyState>
        )}
      </div>
    </div>
  );
}
