import { ArrowLeft, Bot, CircleCheck, MessagesSquare, Target, UserRound } from 'lucide-react';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { conversationStatus, type ConversationStatus, type ConversationView } from '@common/api/conversations';
import { PlatformDot } from '@/components/platform-dot';
import { Avatar, AvatarFallback, initialsOf } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage, isApiError } from '@/lib/api-client';
import { CHANNEL_KIND_LABEL } from '@common/messaging/channel-label';
import { contactLabel, formatConfidence, STATUS_LABEL } from '@/lib/messaging-format';
import { useConversation } from '../api/get-conversation';
import { useThread } from '../api/get-thread';
import { useMarkConversationRead } from '../api/mark-conversation-read';
import { useSetConversion } from '../api/set-conversion';
import { useUpdateConversation } from '../api/update-conversation';
import { Composer } from './composer';
import { MessageThread } from './message-thread';
import { StatusBadge } from './status-badge';
import { ConversationUnderstanding } from './understanding';

/** On a lead: "Mark as converted" (the business won the customer), or undo it. */
function ConversionButton({ conversation }: { conversation: ConversationView }) {
  const conversion = useSetConversion();
  const converted = Boolean(conversation.convertedAt);
  return (
    <Button
      variant={converted ? 'secondary' : 'outline'}
      disabled={conversion.isPending}
      aria-pressed={converted}
      title={converted ? 'Marked as converted: click to undo' : 'The customer bought or booked: count this lead as converted'}
      onClick={() =>
        conversion.mutate(
          { id: conversation.id, converted: !converted },
          {
            onSuccess: () => toast.success(converted ? 'Conversion Undone' : 'Lead Converted', { description: converted ? 'The lead is no longer counted as converted.' : 'The lead counts as converted on the client dashboard.' }),
            onError: (error) => toast.error('Error', { description: errorMessage(error, 'The lead could not be updated.') }),
          },
        )
      }
    >
      {converted ? <CircleCheck aria-hidden /> : <Target aria-hidden />}
      {converted ? 'Converted' : 'Mark as converted'}
    </Button>
  );
}

function ConversationHeader({ conversation, userId, showClient }: { conversation: ConversationView; userId: string; showClient: boolean }) {
  const update = useUpdateConversation();
  const name = contactLabel(conversation.contact, conversation.platform);
  const human = conversation.handledBy === 'human';

  const toggleHandler = () => {
    update.mutate(
      human ? { id: conversation.id, handledBy: 'ai', assignedAgentId: null } : { id: conversation.id, handledBy: 'human', assignedAgentId: userId },
      {
        onSuccess: () =>
          toast.success(human ? 'Returned to AI' : 'Handed off to human', {
            description: human ? 'The AI agent answers this conversation again.' : 'You handle this conversation now.',
          }),
        onError: (error) => toast.error('Error', { description: errorMessage(error, 'The conversation could not be updated.') }),
      },
    );
  };

  const changeStatus = (status: ConversationStatus) => {
    if (status === conversation.status) return;
    update.mutate(
      { id: conversation.id, status },
      {
        onSuccess: () => toast.success('Status Updated', { description: `The conversation is ${STATUS_LABEL[status].toLowerCase()} now.` }),
        onError: (error) => toast.error('Error', { description: errorMessage(error, 'The conversation could not be updated.') }),
      },
    );
  };

  return (
    <header className="grid gap-3 border-b p-4">
      <div className="flex items-start gap-3">
        <Button asChild variant="ghost" size="icon" className="-ml-2 lg:hidden">
          <Link to="/conversations" aria-label="Back to conversations">
            <ArrowLeft aria-hidden />
          </Link>
        </Button>
        <Avatar className="size-10">
          <AvatarFallback>{initialsOf(name)}</AvatarFallback>
        </Avatar>
        <div className="min-w-0 flex-1">
          <h2 id="conversation-title" className="truncate text-lg font-semibold">
            {name}
          </h2>
          <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-muted-foreground">
            <PlatformDot platform={conversation.platform} />
            <span>{CHANNEL_KIND_LABEL[conversation.platform]}</span>
            {conversation.channelName !== CHANNEL_KIND_LABEL[conversation.platform] ? (
              <>
                <span aria-hidden>·</span>
                <span>{conversation.channelName}</span>
              </>
            ) : null}
            {showClient ? (
              <>
                <span aria-hidden>·</span>
                <span>{conversation.clientName}</span>
              </>
            ) : null}
          </p>
        </div>
        <StatusBadge status={conversation.status} />
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <div className="flex items-center gap-2 rounded-md border px-3 py-1.5 text-sm" aria-label="AI confidence">
          <Bot aria-hidden className="size-4 text-primary" />
          <span className="text-muted-foreground">AI Confidence</span>
          <span className="font-semibold tabular-nums" data-testid="ai-confidence">
            {formatConfidence(conversation.aiConfidence)}
          </span>
        </div>
        <span className="flex items-center gap-1.5 text-sm text-muted-foreground">
          {human ? <UserRound aria-hidden className="size-4" /> : <Bot aria-hidden className="size-4" />}
          {human ? `Handled by ${conversation.assignedAgentName ?? 'a person'}` : 'Handled by AI'}
        </span>
        <div className="ml-auto flex flex-wrap items-center gap-2">
          <Select value={conversation.status} onValueChange={(value) => changeStatus(conversationStatus.parse(value))} disabled={update.isPending}>
            <SelectTrigger aria-label="Conversation status" className="w-36">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {conversationStatus.options.map((status) => (
                <SelectItem key={status} value={status}>
                  {STATUS_LABEL[status]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          {conversation.isLead ? <ConversionButton conversation={conversation} /> : null}
          <Button variant={human ? 'outline' : 'default'} onClick={toggleHandler} disabled={update.isPending}>
            {human ? <Bot aria-hidden /> : <UserRound aria-hidden />}
            {human ? 'Return to AI' : 'Handoff to Human'}
          </Button>
        </div>
      </div>
      <ConversationUnderstanding conversation={conversation} />
    </header>
  );
}

export function ConversationPanel({ id, userId, showClient }: { id: string | null; userId: string; showClient: boolean }) {
  const conversation = useConversation(id);
  const thread = useThread(id);
  const { mutate: markRead } = useMarkConversationRead();
  const unread = conversation.data?.unreadCount ?? 0;

  // Opening a conversation reads it; so does a new message arriving while it is open.
  useEffect(() => {
    if (id !== null && unread > 0) markRead(id);
  }, [id, unread, markRead]);

  if (id === null) {
    return (
      <section aria-label="Selected conversation" className="hidden min-h-[28rem] flex-1 rounded-xl border bg-card lg:flex">
        <EmptyState icon={MessagesSquare} title="Select a conversation" className="m-4 flex-1">
          Choose a conversation from the list to read the thread and reply.
        </EmptyState>
      </section>
    );
  }

  return (
    <section aria-labelledby="conversation-title" className="flex min-h-[28rem] flex-1 flex-col overflow-hidden rounded-xl border bg-card">
      {conversation.isPending ? (
        <div className="grid gap-3 p-4">
          <Skeleton className="h-10 w-1/2" />
          <Skeleton className="h-8 w-3/4" />
        </div>
      ) : conversation.isError ? (
        <div className="m-4 grid flex-1">
          <EmptyState icon={MessagesSquare} title="Conversation not found">
            <p>
              {isApiError(conversation.error) && conversation.error.status === 404
                ? 'It does not exist, or it belongs to another business.'
                : errorMessage(conversation.error, 'The conversation could not be loaded.')}
            </p>
            <Button asChild variant="outline" size="sm" className="mt-3">
              <Link to="/conversations">Back to conversations</Link>
            </Button>
          </EmptyState>
        </div>
      ) : (
        <>
          <ConversationHeader conversation={conversation.data} userId={userId} showClient={showClient} />
          <MessageThread query={thread} />
          <Composer key={conversation.data.id} conversation={conversation.data} />
        </>
      )}
    </section>
  );
}
