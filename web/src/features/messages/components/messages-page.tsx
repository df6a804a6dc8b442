import { Check, MessageSquare } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { messageFilter, type MessageView } from '@common/api/conversations';
import { formatResponseTime } from '@common/messaging/keyword-rules';
import { PlatformDot } from '@/components/platform-dot';
import { PriorityBadge } from '@/components/priority-badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { SearchInput } from '@/components/ui/search-input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { useLiveInbox } from '@/hooks/use-live-messaging';
import { cn } from '@/lib/cn';
import { formatRelative } from '@/lib/format';
import type { MessagesFilter } from '@/lib/messaging-keys';
import { CHANNEL_KIND_LABEL } from '@common/messaging/channel-label';
import { truncateText } from '@/lib/messaging-format';
import { useMessages } from '../api/find-messages';
import { useMarkMessageRead } from '../api/mark-message-read';
import { FILTER_LABEL, messageSenderName } from '../lib/messages';
import { RespondDialog } from './respond-dialog';

function parseFilter(value: string | null): MessagesFilter['filter'] {
  const parsed = messageFilter.safeParse(value);
  return parsed.success ? parsed.data : 'all';
}

function MarkReadButton({ message, name }: { message: MessageView; name: string }) {
  const markRead = useMarkMessageRead();
  if (message.read) {
    return (
      <span className="inline-flex items-center gap-1 text-xs text-muted-foreground">
        <Check aria-hidden className="size-3.5" />
        Read
      </span>
    );
  }
  return (
    <Button
      variant="ghost"
      size="sm"
      aria-label={`Mark message from ${name} as read`}
      disabled={markRead.isPending}
      onClick={() =>
        markRead.mutate(message, {
          onSuccess: () => toast.success('Marked as Read'),
          onError: () => toast.error('Error', { description: 'Failed to mark message as read' }),
        })
      }
    >
      <Check aria-hidden />
      Mark as Read
    </Button>
  );
}

function UnreadDot({ read }: { read: boolean }) {
  return read ? null : <span className="size-2 shrink-0 rounded-full bg-primary" aria-label="Unread" role="img" />;
}

/** Mark as Read, Respond (customer messages only) and Open: the same actions in the card and the row. */
function MessageActions({ message, name, className }: { message: MessageView; name: string; className?: string }) {
  return (
    <div className={cn('flex gap-1', className)}>
      {message.direction === 'inbound' ? (
        <>
          <MarkReadButton message={message} name={name} />
          <RespondDialog message={message} senderName={name} />
        </>
      ) : null}
      <Button asChild variant="ghost" size="sm">
        <Link to={`/conversations?id=${message.conversationId}`} aria-label={`Open the conversation with ${name}`}>
          Open
        </Link>
      </Button>
    </div>
  );
}

function MessageRow({ message }: { message: MessageView }) {
  const name = messageSenderName(message);
  return (
    <TableRow data-read={message.read} className={cn(!message.read && 'bg-primary/5')}>
      <TableCell className="align-top">
        <div className="flex items-center gap-2">
          <UnreadDot read={message.read} />
          <PlatformDot platform={message.platform} />
          <span className="font-medium">{name}</span>
        </div>
        <div className="text-xs text-muted-foreground">
          {message.clientName} · {CHANNEL_KIND_LABEL[message.platform]}
        </div>
      </TableCell>
      <TableCell className="max-w-md min-w-40 align-top whitespace-normal">
        <p className="wrap-anywhere">{truncateText(message.content, 300)}</p>
      </TableCell>
      <TableCell className="align-top">
        <PriorityBadge priority={message.priority} />
      </TableCell>
      <TableCell className="max-w-xs align-top text-xs whitespace-normal text-muted-foreground">{message.aiSummary ?? '—'}</TableCell>
      <TableCell className="align-top tabular-nums">{formatResponseTime(message.responseTimeSeconds)}</TableCell>
      <TableCell className="align-top text-xs whitespace-nowrap text-muted-foreground">
        <time dateTime={message.createdAt}>{formatRelative(message.createdAt)}</time>
      </TableCell>
      <TableCell className="align-top">
        <MessageActions message={message} name={name} className="justify-end whitespace-nowrap" />
      </TableCell>
    </TableRow>
  );
}

/** The narrow layout of one message: every column of the row, stacked, with the same actions. */
function MessageCard({ message }: { message: MessageView }) {
  const name = messageSenderName(message);
  return (
    <li
      aria-label={`Message from ${name}`}
      data-read={message.read}
      className={cn('grid gap-2 rounded-lg border p-3 text-sm', !message.read && 'bg-primary/5')}
    >
      <div className="flex items-start gap-2">
        <div className="min-w-0 flex-1">
          <div className="flex items-center gap-2">
            <UnreadDot read={message.read} />
            <PlatformDot platform={message.platform} />
            <span className="truncate font-medium">{name}</span>
          </div>
          <div className="truncate text-xs text-muted-foreground">
            {message.clientName} · {CHANNEL_KIND_LABEL[message.platform]}
          </div>
        </div>
        <time dateTime={message.createdAt} className="shrink-0 text-xs text-muted-foreground">
          {formatRelative(message.createdAt)}
        </time>
      </div>
      <p className="wrap-anywhere">{truncateText(message.content, 300)}</p>
      <dl className="grid grid-cols-[auto_1fr] items-center gap-x-3 gap-y-1 text-xs">
        <dt className="text-muted-foreground">Priority</dt>
        <dd>
          <PriorityBadge priority={message.priority} />
        </dd>
        <dt className="text-muted-foreground">AI SUMMARY</dt>
        <dd className="wrap-anywhere">{message.aiSummary ?? '—'}</dd>
        <dt className="text-muted-foreground">Response Time</dt>
        <dd className="tabular-nums">{formatResponseTime(message.responseTimeSeconds)}</dd>
      </dl>
      <MessageActions message={message} name={name} className="flex-wrap justify-end" />
    </li>
  );
}

/** Spec part 1 §2.11: every customer message with its priority, AI summary and response time. */
export function MessagesPage() {
  useLiveInbox();
  const [params, setParams] = useSearchParams();
  const filter = parseFilter(params.get('filter'));
  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search.trim(), 250);
  const messages = useMessages({ filter, search: debounced === '' ? undefined : debounced });

  useEffect(() => {
    if (messages.isError) toast.error('Error', { description: 'Failed to fetch messages' });
  }, [messages.isError, messages.errorUpdatedAt]);

  return (
    <div className="grid gap-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <SearchInput
          wrapperClassName="sm:w-80"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          placeholder="Search messages..."
          aria-label="Search messages"
        />
        <Select
          value={filter}
          onValueChange={(value) =>
            setParams(
              (current) => {
                const next = new URLSearchParams(current);
                if (value === 'all') next.delete('filter');
                else next.set('filter', value);
                return next;
              },
              { replace: true },
            )
          }
        >
          <SelectTrigger aria-label="Filter messages" className="sm:w-44">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {messageFilter.options.map((option) => (
              <SelectItem key={option} value={option}>
                {FILTER_LABEL[option]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        {messages.data ? (
          <p className="text-sm text-muted-foreground sm:ml-auto" aria-live="polite">
            {messages.data.unreadCount} unread
          </p>
        ) : null}
      </div>

      <Card className="py-2">
        <CardContent className="px-2">
          {messages.isPending ? (
            <p role="status" className="p-8 text-center text-sm text-muted-foreground">
              Loading messages...
            </p>
          ) : messages.isError ? (
            <div className="grid justify-items-center gap-2 p-8 text-center text-sm text-muted-foreground">
              <p>Failed to fetch messages</p>
              <Button variant="outline" size="sm" onClick={() => void messages.refetch()}>
                Try Again
              </Button>
            </div>
          ) : messages.data.messages.length === 0 ? (
            <EmptyState icon={MessageSquare} title={filter === 'all' && debounced === '' ? 'No messages yet' : 'No messages match'} className="m-2 border-0">
              {filter === 'all' && debounced === ''
                ? 'Customer messages appear here as they arrive through a connected channel.'
                : 'Try another filter or search.'}
            </EmptyState>
          ) : (
            // One list, two layouts chosen by the room the card has (container query, not the
            // viewport): cards below 48rem, where seven columns would scroll sideways; the table above.
            <div className="@container">
              <ul aria-label="Messages" className="grid gap-2 p-1 @3xl:hidden">
                {messages.data.messages.map((message) => (
                  <MessageCard key={message.id} message={message} />
                ))}
              </ul>
              <div className="hidden @3xl:block">
                <Table aria-label="Messages">
                  <TableHeader>
                    <TableRow>
                      <TableHead>From</TableHead>
                      <TableHead>Message</TableHead>
                      <TableHead>Priority</TableHead>
                      <TableHead>AI SUMMARY</TableHead>
                      <TableHead>Response Time</TableHead>
                      <TableHead>Received</TableHead>
                      <TableHead>
                        <span className="sr-only">Actions</span>
                      </TableHead>
                    </TableRow>
                  </TableHeader>
                  <TableBody>
                    {messages.data.messages.map((message) => (
                      <MessageRow key={message.id} message={message} />
                    ))}
                  </TableBody>
                </Table>
              </div>
            </div>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
