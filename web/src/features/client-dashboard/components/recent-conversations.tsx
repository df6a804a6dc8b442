import { MessagesSquare } from 'lucide-react';
import { Link } from 'react-router';
import type { DashboardConversation } from '@common/api/client-dashboard';
import { CHANNEL_KIND_LABEL } from '@common/messaging/channel-label';
import { PlatformDot } from '@/components/platform-dot';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { formatRelative } from '@/lib/format';
import { CONVERSATION_STATUS_LABEL } from '../lib/dashboard';

const STATUS_VARIANT = { resolved: 'secondary', active: 'default', lead: 'success' } as const;
const SENTIMENT_LABEL = { positive: 'Positive', neutral: 'Neutral', negative: 'Negative' } as const;
const SENTIMENT_CLASS = { positive: 'text-success', neutral: 'text-muted-foreground', negative: 'text-destructive' } as const;

/** The latest conversations, each opening in /conversations (View Chat). */
export function RecentConversations({ conversations }: { conversations: readonly DashboardConversation[] }) {
  if (conversations.length === 0) {
    return (
      <EmptyState icon={MessagesSquare} title="No conversations yet">
        Conversations appear here once customers write on a connected channel.
      </EmptyState>
    );
  }
  return (
    <ul aria-label="Recent conversations" className="grid gap-3">
      {conversations.map((c) => (
        <li key={c.id} className="grid gap-2 rounded-xl border bg-card p-4 sm:grid-cols-[1fr_auto] sm:items-center">
          <div className="grid min-w-0 gap-1">
            <div className="flex min-w-0 flex-wrap items-center gap-2">
              <span className="truncate font-medium">{c.customerName}</span>
              <span className="flex items-center gap-1.5 text-xs text-muted-foreground">
                <span aria-hidden className="flex">
                  <PlatformDot platform={c.platform} />
                </span>
                {CHANNEL_KIND_LABEL[c.platform]}
              </span>
              <Badge variant={STATUS_VARIANT[c.status]}>{CONVERSATION_STATUS_LABEL[c.status]}</Badge>
              {c.convertedAt ? <Badge variant="outline">Converted</Badge> : null}
            </div>
            <p className="line-clamp-2 text-sm break-words text-muted-foreground">{c.lastMessage ?? 'No messages yet.'}</p>
            <p className="flex flex-wrap gap-x-3 text-xs text-muted-foreground">
              {c.timestamp ? <time dateTime={c.timestamp}>{formatRelative(c.timestamp)}</time> : null}
              {c.sentiment ? <span className={SENTIMENT_CLASS[c.sentiment]}>Sentiment: {SENTIMENT_LABEL[c.sentiment]}</span> : null}
            </p>
          </div>
          <Button asChild variant="outline" size="sm" className="justify-self-start sm:justify-self-end">
            <Link to={`/conversations?conversation=${encodeURIComponent(c.id)}`} aria-label={`View Chat with ${c.customerName}`}>
              View Chat
            </Link>
          </Button>
        </li>
      ))}
    </ul>
  );
}
