import { CheckCheck, Download, Inbox, List, MoreVertical } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import type { MessageView } from '@common/api/conversations';
import { formatResponseTime } from '@common/messaging/keyword-rules';
import { PlatformDot } from '@/components/platform-dot';
import { PriorityBadge } from '@/components/priority-badge';
import { Avatar, AvatarFallback, initialsOf } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { SearchInput } from '@/components/ui/search-input';
import { Skeleton } from '@/components/ui/skeleton';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { useLiveInbox } from '@/hooks/use-live-messaging';
import { errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { formatRelative } from '@/lib/format';
import type { MessagesFilter } from '@/lib/messaging-keys';
import { truncateText } from '@/lib/messaging-format';
import { useExportMessages } from '../api/export-messages';
import { useMarkAllRead } from '../api/mark-all-read';
import { useMessages } from '../api/find-messages';
import { INBOX_LIMIT, INBOX_PREVIEW_CHARS, messageSenderName } from '../lib/messages';

type InboxFilter = 'all' | 'high';

function InboxItem({ message }: { message: MessageView }) {
  const name = messageSenderName(message);
  return (
    <li className={cn('grid gap-2 rounded-lg border p-3', !message.read && 'border-primary/30 bg-primary/5')}>
      <div className="flex items-center gap-3">
        <Avatar className="size-9">
          <AvatarFallback>{initialsOf(name)}</AvatarFallback>
        </Avatar>
        <div className="min-w-0 flex-1">
          <p className="flex items-center gap-2">
            <span className="truncate font-medium">{name}</span>
            <PlatformDot platform={message.platform} />
          </p>
          <p className="text-xs text-muted-foreground">
            <time dateTime={message.createdAt}>{formatRelative(message.createdAt)}</time>
            {' · '}
            Response time <span className="tabular-nums">{formatResponseTime(message.responseTimeSeconds)}</span>
          </p>
        </div>
        <PriorityBadge priority={message.priority} />
      </div>
      <p className="text-sm break-words">{truncateText(message.content, INBOX_PREVIEW_CHARS)}</p>
      {message.aiSummary ? (
        <div className="rounded-md bg-muted/50 px-2.5 py-1.5">
          <p className="text-[0.65rem] font-semibold tracking-wider text-primary">AI SUMMARY</p>
          <p className="text-xs text-muted-foreground">{message.aiSummary}</p>
        </div>
      ) : null}
      <Button asChild variant="outline" size="sm" className="w-fit">
        <Link to={`/conversations?id=${message.conversationId}`}>View Conversation</Link>
      </Button>
    </li>
  );
}

/** Spec part 1 §2.12: the latest messages on the dashboard, with the menu's actions working. */
export function InboxWidget() {
  useLiveInbox();
  const navigate = useNavigate();
  const [filter, setFilter] = useState<InboxFilter>('all');
  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search.trim(), 250);
  const current: MessagesFilter = { filter, search: debounced === '' ? undefined : debounced };
  const messages = useMessages({ ...current, limit: INBOX_LIMIT });
  const markAll = useMarkAllRead();
  const exportCsv = useExportMessages();

  return (
    <Card className="gap-4">
      <CardHeader className="flex flex-row items-center justify-between gap-2">
        <CardTitle className="flex items-center gap-2">
          <Inbox aria-hidden className="size-4 text-primary" />
          Inbox
          {messages.data && messages.data.unreadCount > 0 ? (
            <span className="text-sm font-normal text-muted-foreground">({messages.data.unreadCount} unread)</span>
          ) : null}
        </CardTitle>
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button variant="ghost" size="icon" aria-label="Inbox menu">
              <MoreVertical aria-hidden />
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="end">
            <DropdownMenuItem onSelect={() => void navigate('/messages')}>
              <List aria-hidden />
              View All Messages
            </DropdownMenuItem>
            <DropdownMenuItem
              disabled={markAll.isPending}
              onSelect={() =>
                markAll.mutate(current, {
                  onSuccess: (updated) =>
                    toast.success('Marked as Read', {
                      description: updated === 1 ? '1 message marked as read.' : `${updated} messages marked as read.`,
                    }),
                  onError: () => toast.error('Error', { description: 'Failed to mark message as read' }),
                })
              }
            >
              <CheckCheck aria-hidden />
              Mark All as Read
            </DropdownMenuItem>
            <DropdownMenuItem
              disabled={exportCsv.isPending}
              onSelect={() =>
                exportCsv.mutate(current, {
                  onError: (error) => toast.error('Error', { description: errorMessage(error, 'Failed to export messages') }),
                })
              }
            >
              <Download aria-hidden />
              Export Messages
            </DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
      </CardHeader>
      <CardContent className="grid gap-3">
        <div className="flex flex-wrap gap-2" role="group" aria-label="Message filter">
          <Button size="sm" variant={filter === 'all' ? 'default' : 'outline'} aria-pressed={filter === 'all'} onClick={() => setFilter('all')}>
            Recent Messages
          </Button>
          <Button size="sm" variant={filter === 'high' ? 'default' : 'outline'} aria-pressed={filter === 'high'} onClick={() => setFilter('high')}>
            high
          </Button>
        </div>
        <SearchInput
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          placeholder="Search messages..."
          aria-label="Search messages"
        />
        <div className="max-h-[500px] overflow-y-auto pr-1">
          {messages.isPending ? (
            <div className="grid gap-2">
              <Skeleton className="h-24" />
              <Skeleton className="h-24" />
            </div>
          ) : messages.isError ? (
            <div className="grid justify-items-center gap-2 p-6 text-center text-sm text-muted-foreground">
              <p>Failed to fetch messages</p>
              <Button variant="outline" size="sm" onClick={() => void messages.refetch()}>
                Try Again
              </Button>
            </div>
          ) : messages.data.messages.length === 0 ? (
            <p className="p-6 text-center text-sm text-muted-foreground">No messages match your current filters</p>
          ) : (
            <ul aria-label="Inbox messages" className="grid gap-2">
              {messages.data.messages.slice(0, INBOX_LIMIT).map((message) => (
                <InboxItem key={message.id} message={message} />
              ))}
            </ul>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
