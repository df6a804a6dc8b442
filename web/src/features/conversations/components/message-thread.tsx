import { AlertCircle, Bot, Check, CheckCheck, CircleHelp, Clock, RotateCcw, Star, UserRound } from 'lucide-react';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import type { MessageView } from '@common/api/conversations';
import { ratingLabel } from '@common/messaging/satisfaction';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { formatMessageTime } from '@/lib/format';
import { DELIVERY_LABEL, formatConfidence } from '@/lib/messaging-format';
import { useRetryMessage } from '../api/retry-message';
import type { useThread } from '../api/get-thread';
import { attachmentLabel, messageSide, senderLabel, showsDelivery, threadMessages } from '../lib/thread';

export function DeliveryStatus({ message }: { message: MessageView }) {
  const retry = useRetryMessage();
  const label = DELIVERY_LABEL[message.status];
  // Failed, or unknown: Parley was interrupted while sending and does not repeat it blindly (the
  // customer may have it already) — a person checks and sends it again with one click.
  if (message.status === 'failed' || message.status === 'unknown') {
    const unknown = message.status === 'unknown';
    const StatusIcon = unknown ? CircleHelp : AlertCircle;
    return (
      <div className={cn('grid gap-1 text-xs', unknown ? 'text-amber-400' : 'text-destructive')} data-testid="delivery-status">
        <span className="flex items-center gap-1">
          <StatusIcon aria-hidden className="size-3.5 shrink-0" />
          {label}
          {message.errorMessage ? `: ${message.errorMessage}` : ''}
        </span>
        <Button
          variant="outline"
          size="sm"
          className="h-7 w-fit"
          disabled={retry.isPending}
          onClick={() =>
            retry.mutate(
              { conversationId: message.conversationId, messageId: message.id },
              { onError: (error) => toast.error('Error', { description: errorMessage(error, 'Failed to send response') }) },
            )
          }
        >
          <RotateCcw aria-hidden />
          {unknown ? 'Resend' : 'Retry'}
        </Button>
      </div>
    );
  }
  const Icon = message.status === 'queued' ? Clock : message.status === 'sent' ? Check : CheckCheck;
  return (
    <span
      className={cn('flex items-center gap-1 text-xs text-muted-foreground', message.status === 'read' && 'text-sky-400')}
      data-testid="delivery-status"
    >
      <Icon aria-hidden className="size-3.5" />
      {label}
    </span>
  );
}

/** A satisfaction survey's state under its request, and the rating on the customer's answer (docs/satisfaction.md). */
export function SurveyNote({ survey }: { survey: NonNullable<MessageView['survey']> }) {
  // When the thread was shown: a survey that runs out while it stays open updates with the next load.
  const [shownAt] = useState(Date.now);
  const expired = survey.status === 'expired' || (survey.status === 'pending' && Date.parse(survey.expiresAt) <= shownAt);
  if (survey.status === 'answered' && survey.rating !== null) {
    return (
      <span className="flex flex-wrap items-center gap-1 text-xs" data-testid="survey-note">
        <Star aria-hidden className="size-3.5 fill-amber-400 text-amber-400" />
        <span className="font-medium text-foreground">Rated {ratingLabel(survey.rating)}</span>
        {survey.comment ? <span className="text-muted-foreground">— “{survey.comment}”</span> : null}
      </span>
    );
  }
  return (
    <span className="flex items-center gap-1 text-xs text-muted-foreground" data-testid="survey-note">
      <Star aria-hidden className="size-3.5" />
      {expired ? 'Satisfaction survey expired without a rating' : 'Satisfaction survey: waiting for the customer’s rating'}
    </span>
  );
}

function MessageBubble({ message }: { message: MessageView }) {
  const side = messageSide(message);
  const attachment = attachmentLabel(message);
  if (side === 'center') {
    return (
      <li className="flex justify-center">
        <div className="grid max-w-[80%] justify-items-center gap-1 rounded-md bg-muted px-3 py-1.5 text-center text-xs text-muted-foreground">
          <p className="break-words whitespace-pre-wrap">{message.content}</p>
          {message.survey ? <SurveyNote survey={message.survey} /> : null}
        </div>
      </li>
    );
  }
  const isAi = message.senderType === 'ai';
  const isAgent = message.senderType === 'agent';
  const SenderIcon = isAi ? Bot : UserRound;
  return (
    <li className={cn('flex', side === 'right' ? 'justify-end' : 'justify-start')} data-sender={message.senderType}>
      <article
        aria-label={`${senderLabel(message)}, ${formatMessageTime(message.createdAt)}`}
        className={cn(
          'grid max-w-[85%] gap-1 rounded-2xl border px-3.5 py-2 text-sm shadow-xs sm:max-w-[70%]',
          side === 'right' && 'rounded-br-sm border-transparent bg-secondary',
          isAi && 'rounded-bl-sm border-primary/30 bg-primary/15',
          isAgent && 'rounded-bl-sm border-emerald-500/30 bg-emerald-500/10',
        )}
      >
        <header className="flex items-center gap-2 text-xs text-muted-foreground">
          {side === 'left' ? <SenderIcon aria-hidden className={cn('size-3.5', isAi ? 'text-primary' : 'text-emerald-400')} /> : null}
          <span className="font-medium text-foreground/90">{senderLabel(message)}</span>
          {isAgent ? <span className="rounded bg-emerald-500/15 px-1 text-[0.65rem] tracking-wide text-emerald-300 uppercase">Agent</span> : null}
          <time dateTime={message.createdAt} className="ml-auto">
            {formatMessageTime(message.createdAt)}
          </time>
        </header>
        {attachment ? <p className="text-xs font-medium text-muted-foreground italic">{attachment}</p> : null}
        {message.content !== '' ? <p className="break-words whitespace-pre-wrap">{message.content}</p> : null}
        <footer className="flex flex-wrap items-center justify-between gap-2">
          {isAi ? (
            <span className="text-xs text-muted-foreground">
              Confidence <span className="font-medium text-foreground tabular-nums">{formatConfidence(message.aiConfidence)}</span>
            </span>
          ) : message.survey && message.direction === 'inbound' ? (
            <SurveyNote survey={message.survey} />
          ) : (
            <span />
          )}
          {showsDelivery(message) ? <DeliveryStatus message={message} /> : null}
        </footer>
      </article>
    </li>
  );
}

export function MessageThread({ query }: { query: ReturnType<typeof useThread> }) {
  const messages = threadMessages(query.data);
  const scroller = useRef<HTMLDivElement>(null);
  const stickToBottom = useRef(true);
  const lastId = messages.at(-1)?.id;

  // Follow new messages while the reader is at the bottom; stay put while they read older ones.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && stickToBottom.current) el.scrollTop = el.scrollHeight;
  }, [lastId]);

  useEffect(() => {
    const el = scroller.current;
    if (!el) return undefined;
    const onScroll = () => {
      stickToBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => el.removeEventListener('scroll', onScroll);
  }, []);

  return (
    <div ref={scroller} role="log" aria-label="Messages" aria-live="polite" className="min-h-0 flex-1 overflow-y-auto px-4 py-3">
      {query.isPending ? (
        <div className="grid gap-3">
          <Skeleton className="h-12 w-2/3" />
          <Skeleton className="ml-auto h-12 w-1/2" />
          <Skeleton className="h-12 w-3/5" />
        </div>
      ) : query.isError ? (
        <div className="grid justify-items-center gap-2 p-6 text-center text-sm text-muted-foreground">
          <p>{errorMessage(query.error, 'The messages could not be loaded.')}</p>
          <Button variant="outline" size="sm" onClick={() => void query.refetch()}>
            Try Again
          </Button>
        </div>
      ) : (
        <>
          {query.hasNextPage ? (
            <div className="flex justify-center pb-3">
              <Button
                variant="ghost"
                size="sm"
                disabled={query.isFetchingNextPage}
                onClick={() => {
                  stickToBottom.current = false;
                  void query.fetchNextPage();
                }}
              >
                {query.isFetchingNextPage ? 'Loading...' : 'Load earlier messages'}
              </Button>
            </div>
          ) : null}
          {messages.length === 0 ? (
            <p className="p-6 text-center text-sm text-muted-foreground">No messages in this conversation yet.</p>
          ) : (
            <ol className="grid gap-3">
              {messages.map((message) => (
                <MessageBubble key={message.id} message={message} />
              ))}
            </ol>
          )}
        </>
      )}
    </div>
  );
}
