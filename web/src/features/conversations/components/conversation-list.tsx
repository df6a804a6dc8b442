import { AlertTriangle, MessagesSquare, UserRound } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { ConversationListItem, ConversationSearchMatch } from '@common/api/conversations';
import { PlatformDot } from '@/components/platform-dot';
import { Avatar, AvatarFallback, initialsOf } from '@/components/ui/avatar';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { SearchInput } from '@/components/ui/search-input';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { formatRelative } from '@/lib/format';
import { CHANNEL_KIND_LABEL } from '@common/messaging/channel-label';
import { contactLabel, STATUS_LABEL, truncateText } from '@/lib/messaging-format';
import type { useConversations } from '../api/find-conversations';
import { CONVERSATION_TABS, type ConversationListTab } from '../lib/tabs';
import { priorityText, requestText } from '../lib/understanding';
import { StatusBadge } from './status-badge';
import { LeadBadge, PriorityReasonInline, SentimentIndicator } from './understanding';

export interface ConversationListProps {
  tab: ConversationListTab;
  onTabChange: (tab: ConversationListTab) => void;
  search: string;
  onSearchChange: (search: string) => void;
  query: ReturnType<typeof useConversations>;
  selectedId: string | null;
  /** Staff see every client's conversations: show whose each one is. */
  showClient: boolean;
  startDialog: ReactNode;
}

function Tile({ label, value, icon: Icon }: { label: string; value: number | undefined; icon: typeof MessagesSquare }) {
  return (
    <div className="flex items-center gap-3 rounded-lg border bg-muted/40 p-3">
      <span className="flex size-9 items-center justify-center rounded-md bg-primary/15">
        <Icon aria-hidden className="size-4 text-primary" />
      </span>
      <dl className="flex flex-col-reverse">
        <dt className="text-xs text-muted-foreground">{label}</dt>
        <dd className="text-xl font-semibold tabular-nums">{value ?? '—'}</dd>
      </dl>
    </div>
  );
}

/**
 * The message a search matched, its matching words marked. The segments are plain text rendered as
 * React text nodes: whatever the customer wrote (markup included) shows as written, never as HTML.
 */
export function SearchMatchText({ match }: { match: ConversationSearchMatch }) {
  return (
    <span className="line-clamp-2 text-sm text-muted-foreground" data-testid="search-match">
      {match.segments.map((segment, i) =>
        segment.match ? (
          <mark key={i} className="rounded-sm bg-warning/30 px-0.5 text-foreground">
            {segment.text}
          </mark>
        ) : (
          <span key={i}>{segment.text}</span>
        ),
      )}
    </span>
  );
}

function ConversationItem({ conversation, selected, showClient }: { conversation: ConversationListItem; selected: boolean; showClient: boolean }) {
  const [params] = useSearchParams();
  const next = new URLSearchParams(params);
  next.set('id', conversation.id);
  const name = contactLabel(conversation.contact, conversation.platform);
  const needsHuman = conversation.handledBy === 'human' || conversation.status === 'escalated';
  const request = requestText(conversation);
  return (
    <li>
      <Link
        to={{ search: next.toString() }}
        aria-current={selected ? 'page' : undefined}
        className={cn(
          'flex gap-3 rounded-lg border border-transparent p-3 transition-colors hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none',
          selected && 'border-primary/40 bg-accent',
        )}
      >
        <Avatar className="size-9">
          <AvatarFallback>{initialsOf(name)}</AvatarFallback>
        </Avatar>
        <span className="grid min-w-0 flex-1 gap-1">
          <span className="flex items-center gap-2">
            <PlatformDot platform={conversation.platform} />
            <span className="truncate font-medium">{name}</span>
            {needsHuman ? <AlertTriangle aria-label="Needs a human" className="size-3.5 shrink-0 text-warning" /> : null}
            <span className="ml-auto shrink-0 text-xs text-muted-foreground">
              {conversation.lastMessageAt ? formatRelative(conversation.lastMessageAt) : ''}
            </span>
          </span>
          {conversation.searchMatch ? (
            <SearchMatchText match={conversation.searchMatch} />
          ) : (
            <span className="truncate text-sm text-muted-foreground">
              {conversation.lastMessagePreview ? truncateText(conversation.lastMessagePreview, 80) : 'No messages yet'}
            </span>
          )}
          {request ? (
            <span className="truncate text-xs text-foreground/80" data-testid="conversation-request" title={request}>
              {request}
            </span>
          ) : null}
          <span className="flex flex-wrap items-center gap-1.5 text-xs text-muted-foreground">
            <StatusBadge status={conversation.status} />
            {conversation.isLead ? <LeadBadge /> : null}
            <SentimentIndicator sentiment={conversation.sentiment} />
            {conversation.priority !== 'low' ? (
              <span className="min-w-0 truncate" data-testid="conversation-priority" title={priorityText(conversation.priority, conversation.priorityReason)}>
                <PriorityReasonInline priority={conversation.priority} reason={conversation.priorityReason} />
              </span>
            ) : null}
            <span>{showClient ? conversation.clientName : CHANNEL_KIND_LABEL[conversation.platform]}</span>
            {conversation.unreadCount > 0 ? (
              <Badge className="ml-auto rounded-full tabular-nums" aria-label={`${conversation.unreadCount} unread`}>
                {conversation.unreadCount}
              </Badge>
            ) : null}
          </span>
        </span>
      </Link>
    </li>
  );
}

export function ConversationList({
  tab,
  onTabChange,
  search,
  onSearchChange,
  query,
  selectedId,
  showClient,
  startDialog,
}: ConversationListProps) {
  const counts = query.data?.pages[0]?.counts;
  const conversations = query.data?.pages.flatMap((page) => page.conversations) ?? [];

  return (
    <section aria-label="Conversations" className="flex min-h-0 flex-1 flex-col gap-3 rounded-xl border bg-card p-3">
      {startDialog}
      <SearchInput
        value={search}
        onChange={(event) => onSearchChange(event.target.value)}
        placeholder="Search conversations..."
        aria-label="Search conversations"
      />
      <Tabs value={tab} onValueChange={(value) => onTabChange(value as ConversationListTab)} className="gap-0">
        <TabsList className="w-full">
          {CONVERSATION_TABS.map((t) => (
            <TabsTrigger key={t} value={t} className="flex-1">
              {t === 'all' ? 'All' : STATUS_LABEL[t]}
            </TabsTrigger>
          ))}
        </TabsList>
      </Tabs>
      <div className="grid grid-cols-2 gap-2">
        <Tile label="Active" value={counts?.active} icon={MessagesSquare} />
        <Tile label="Needs Human" value={counts?.human} icon={UserRound} />
      </div>
      <div className="-mx-1 min-h-0 flex-1 overflow-y-auto px-1">
        {query.isPending ? (
          <div className="grid gap-2" aria-label="Loading conversations">
            <Skeleton className="h-16" />
            <Skeleton className="h-16" />
            <Skeleton className="h-16" />
          </div>
        ) : query.isError ? (
          <div className="grid justify-items-center gap-2 p-6 text-center text-sm text-muted-foreground">
            <p>{errorMessage(query.error, 'The conversations could not be loaded.')}</p>
            <Button variant="outline" size="sm" onClick={() => void query.refetch()}>
              Try Again
            </Button>
          </div>
        ) : conversations.length === 0 ? (
          <p className="p-6 text-center text-sm text-muted-foreground">
            {search.trim() !== '' || tab !== 'all'
              ? 'No conversations match.'
              : 'No conversations yet. They appear here when a customer writes through a connected channel.'}
          </p>
        ) : (
          <>
            <ul aria-label="Conversation list" className="grid grid-cols-1 gap-1">
              {conversations.map((conversation) => (
                <ConversationItem
                  key={conversation.id}
                  conversation={conversation}
                  selected={conversation.id === selectedId}
                  showClient={showClient}
                />
              ))}
            </ul>
            {query.hasNextPage ? (
              <div className="flex justify-center p-2">
                <Button variant="ghost" size="sm" disabled={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
                  {query.isFetchingNextPage ? 'Loading...' : 'Load more'}
                </Button>
              </div>
            ) : null}
          </>
        )}
      </div>
    </section>
  );
}
