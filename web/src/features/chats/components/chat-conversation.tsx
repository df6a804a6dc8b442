import { SendHorizontal } from 'lucide-react';
import { useEffect, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import type { z } from 'zod';
import { CHAT_MESSAGE_MAX, type chatThreadView } from '@common/api/chats';
import { Avatar, AvatarFallback, initialsOf } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { formatMessageTime } from '@/lib/format';
import { isSendKey } from '@/lib/keyboard';
import { useChatMessages } from '../api/get-chat-messages';
import { useMarkChatRead } from '../api/mark-chat-read';
import { useSendChatMessage } from '../api/send-chat-message';
import { PresenceLabel } from './presence';

type ChatThread = z.infer<typeof chatThreadView>;

/** One chat: its messages (mine on the right) and a send box where Enter sends. */
export function ChatConversation({ thread, userId, compact = false }: { thread: ChatThread; userId: string; compact?: boolean }) {
  const messages = useChatMessages(thread.id);
  const send = useSendChatMessage();
  const { mutate: markRead } = useMarkChatRead();
  const [text, setText] = useState('');
  const scroller = useRef<HTMLDivElement>(null);
  const list = messages.data?.messages ?? [];
  const lastId = list.at(-1)?.id;
  const name = thread.participant.name || thread.participant.email;

  useEffect(() => {
    if (thread.unreadCount > 0) markRead(thread.id);
  }, [thread.id, thread.unreadCount, markRead]);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [lastId]);

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    const message = text.trim();
    // Part 2 §5: a chat message is sent only if it is not empty after trimming.
    if (message === '' || send.isPending) return;
    setText('');
    send.mutate(
      { threadId: thread.id, message },
      {
        onError: (error) => {
          setText((current) => (current === '' ? message : current));
          toast.error('Error', { description: errorMessage(error, 'The message could not be sent.') });
        },
      },
    );
  };

  return (
    <section aria-label={`Chat with ${name}`} className="flex min-h-0 flex-1 flex-col">
      <header className={cn('flex items-center gap-3 border-b', compact ? 'p-3' : 'p-4')}>
        <Avatar className="size-10">
          <AvatarFallback>{initialsOf(name)}</AvatarFallback>
        </Avatar>
        <div className="min-w-0">
          <h2 className="truncate font-semibold">{name}</h2>
          <p className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
            {thread.participant.company ? <span>{thread.participant.company}</span> : null}
            <PresenceLabel status={thread.status} />
          </p>
        </div>
      </header>
      <div ref={scroller} role="log" aria-label="Chat messages" aria-live="polite" className="min-h-0 flex-1 overflow-y-auto p-4">
        {messages.isPending ? (
          <div className="grid gap-3">
            <Skeleton className="h-10 w-1/2" />
            <Skeleton className="ml-auto h-10 w-1/3" />
          </div>
        ) : messages.isError ? (
          <p className="text-center text-sm text-muted-foreground">{errorMessage(messages.error, 'The messages could not be loaded.')}</p>
        ) : list.length === 0 ? (
          <p className="text-center text-sm text-muted-foreground">No messages yet. Say hello.</p>
        ) : (
          <ol className="grid gap-2">
            {list.map((message) => {
              const mine = message.senderId === userId;
              return (
                <li key={message.id} className={cn('flex', mine ? 'justify-end' : 'justify-start')}>
                  <div
                    className={cn(
                      'grid max-w-[80%] gap-0.5 rounded-2xl px-3.5 py-2 text-sm',
                      mine ? 'rounded-br-sm bg-primary text-primary-foreground' : 'rounded-bl-sm bg-secondary',
                    )}
                  >
                    {!mine ? <span className="text-xs font-medium opacity-80">{message.senderName}</span> : null}
                    <p className="break-words whitespace-pre-wrap">{message.message}</p>
                    <time dateTime={message.timestamp} className={cn('text-right text-[0.7rem]', mine ? 'text-primary-foreground/70' : 'text-muted-foreground')}>
                      {formatMessageTime(message.timestamp)}
                    </time>
                  </div>
                </li>
              );
            })}
          </ol>
        )}
      </div>
      <form onSubmit={submit} className="flex items-end gap-2 border-t p-3">
        <Textarea
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (isSendKey(event)) {
              event.preventDefault();
              submit();
            }
          }}
          aria-label="Message"
          placeholder="Type a message... (Enter sends)"
          maxLength={CHAT_MESSAGE_MAX}
          rows={1}
          className="max-h-32 min-h-10 resize-none"
        />
        <Button type="submit" disabled={text.trim() === '' || send.isPending}>
          <SendHorizontal aria-hidden />
          Send
        </Button>
      </form>
    </section>
  );
}
