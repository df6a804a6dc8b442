import { Clock, SendHorizontal } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { CONVERSATION_MESSAGES, MESSAGE_MAX, type ConversationView } from '@common/api/conversations';
import { Button } from '@/components/ui/button';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage, isApiError } from '@/lib/api-client';
import { isSendKey } from '@/lib/keyboard';
import { useSendMessage } from '../api/send-message';

export function Composer({ conversation }: { conversation: ConversationView }) {
  const [text, setText] = useState('');
  const send = useSendMessage();
  const closed = !conversation.canSendFreeText;
  const trimmed = text.trim();

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (closed || trimmed === '' || send.isPending) return;
    // Cleared at once so the next message can be typed; given back if the send fails.
    setText('');
    send.mutate(
      { conversationId: conversation.id, text: trimmed },
      {
        onError: (error) => {
          setText((current) => (current === '' ? trimmed : current));
          const description =
            isApiError(error) && error.reason === 'window_closed'
              ? CONVERSATION_MESSAGES.windowClosed
              : errorMessage(error, 'Failed to send response');
          toast.error('Error', { description });
        },
      },
    );
  };

  return (
    <form onSubmit={submit} className="grid gap-2 border-t p-3">
      {closed ? (
        <p role="status" className="flex items-start gap-2 rounded-md border border-warning/30 bg-warning/10 p-2.5 text-sm text-warning">
          <Clock aria-hidden className="mt-0.5 size-4 shrink-0" />
          {CONVERSATION_MESSAGES.windowClosed}
        </p>
      ) : null}
      <div className="flex items-end gap-2">
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
          placeholder={closed ? 'Free text is not possible right now' : 'Type your message... (Enter sends, Shift+Enter for a new line)'}
          maxLength={MESSAGE_MAX}
          disabled={closed}
          rows={1}
          className="max-h-40 min-h-10 resize-none"
        />
        <Button type="submit" disabled={closed || trimmed === '' || send.isPending}>
          <SendHorizontal aria-hidden />
          Send
        </Button>
      </div>
    </form>
  );
}
