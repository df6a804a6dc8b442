import type { z } from 'zod';
import type { chatThreadView } from '@common/api/chats';
import { Avatar, AvatarFallback, initialsOf } from '@/components/ui/avatar';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/cn';
import { formatRelative } from '@/lib/format';
import { truncateText } from '@/lib/messaging-format';
import { PresenceDot } from './presence';

type ChatThread = z.infer<typeof chatThreadView>;

export function ChatThreadList({
  threads,
  selectedId,
  onSelect,
}: {
  threads: readonly ChatThread[];
  selectedId: string | null;
  onSelect: (id: string) => void;
}) {
  return (
    <ul aria-label="Chats" className="grid gap-1">
      {threads.map((thread) => (
        <li key={thread.id}>
          <button
            type="button"
            onClick={() => onSelect(thread.id)}
            aria-current={thread.id === selectedId ? 'true' : undefined}
            className={cn(
              'flex w-full gap-3 rounded-lg border border-transparent p-3 text-left transition-colors hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none',
              thread.id === selectedId && 'border-primary/40 bg-accent',
            )}
          >
            <span className="relative">
              <Avatar className="size-9">
                <AvatarFallback>{initialsOf(thread.participant.name || thread.participant.email)}</AvatarFallback>
              </Avatar>
              <PresenceDot status={thread.status} className="absolute -right-0.5 -bottom-0.5" />
            </span>
            <span className="grid min-w-0 flex-1 gap-0.5">
              <span className="flex items-center gap-2">
                <span className="truncate font-medium">{thread.participant.name || thread.participant.email}</span>
                <span className="ml-auto shrink-0 text-xs text-muted-foreground">
                  {thread.lastMessageAt ? formatRelative(thread.lastMessageAt) : ''}
                </span>
              </span>
              <span className="truncate text-xs text-muted-foreground">
                {thread.participant.company ?? (thread.type === 'admin' ? 'Parley team' : 'Client')}
              </span>
              <span className="flex items-center gap-2">
                <span className="truncate text-sm text-muted-foreground">{thread.lastMessage ? truncateText(thread.lastMessage, 60) : 'No messages yet'}</span>
                {thread.unreadCount > 0 ? (
                  <Badge className="ml-auto rounded-full tabular-nums" aria-label={`${thread.unreadCount} unread`}>
                    {thread.unreadCount}
                  </Badge>
                ) : null}
              </span>
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
