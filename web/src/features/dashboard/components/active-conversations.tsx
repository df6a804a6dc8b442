import { MessagesSquare } from 'lucide-react';
import { Link } from 'react-router';
import { PlatformDot } from '@/components/platform-dot';
import { Avatar, AvatarFallback, initialsOf } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/cn';
import { formatRelative } from '@/lib/format';
import { contactLabel, formatConfidence, truncateText } from '@/lib/messaging-format';
import { useActiveConversations } from '../api/get-dashboard-overview';

/** Spec part 1 §2.13: the latest active conversations, with VIEW ALL. */
export function ActiveConversations({ className, showClient }: { className?: string; showClient: boolean }) {
  const active = useActiveConversations();
  return (
    <Card className={cn('gap-4', className)}>
      <CardHeader className="flex flex-row items-center justify-between">
        <CardTitle className="flex items-center gap-2">
          <MessagesSquare aria-hidden className="size-4 text-primary" />
          Active Conversations
        </CardTitle>
        <Button asChild variant="ghost" size="sm">
          <Link to="/conversations?tab=active">VIEW ALL</Link>
        </Button>
      </CardHeader>
      <CardContent>
        {active.isPending ? (
          <div className="grid gap-2">
            <Skeleton className="h-14" />
            <Skeleton className="h-14" />
          </div>
        ) : active.isError ? (
          <p className="text-sm text-muted-foreground">The conversations could not be loaded.</p>
        ) : active.data.length === 0 ? (
          <p className="rounded-lg border border-dashed p-4 text-sm text-muted-foreground">
            No active conversations. They appear here as customers write through a connected channel.
          </p>
        ) : (
          <ul className="grid grid-cols-1 gap-1" aria-label="Active conversations">
            {active.data.map((conversation) => {
              const name = contactLabel(conversation.contact, conversation.platform);
              const needsHuman = conversation.handledBy === 'human';
              return (
                <li key={conversation.id}>
                  <Link
                    to={`/conversations?id=${conversation.id}`}
                    className="flex items-center gap-3 rounded-lg p-2 transition-colors hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
                  >
                    <Avatar className="size-9">
                      <AvatarFallback>{initialsOf(name)}</AvatarFallback>
                    </Avatar>
                    <span className="grid min-w-0 flex-1">
                      <span className="flex items-center gap-2">
                        <PlatformDot platform={conversation.platform} />
                        <span className="truncate font-medium">{name}</span>
                        {showClient ? <span className="truncate text-xs text-muted-foreground">{conversation.clientName}</span> : null}
                      </span>
                      <span className="truncate text-sm text-muted-foreground">
                        {conversation.lastMessagePreview ? truncateText(conversation.lastMessagePreview, 100) : 'No messages yet'}
                      </span>
                    </span>
                    <span className="grid shrink-0 justify-items-end text-xs text-muted-foreground">
                      <span>{conversation.lastMessageAt ? formatRelative(conversation.lastMessageAt) : ''}</span>
                      <span>{needsHuman ? 'Human' : conversation.aiConfidence === null ? 'AI' : `AI ${formatConfidence(conversation.aiConfidence)}`}</span>
                    </span>
                  </Link>
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
