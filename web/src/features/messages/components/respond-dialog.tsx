import { Reply } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { CONVERSATION_MESSAGES, MESSAGE_MAX, sendMessageInput, type MessageView } from '@common/api/conversations';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { fieldA11y, FormField } from '@/components/ui/form-field';
import { Textarea } from '@/components/ui/textarea';
import { isApiError } from '@/lib/api-client';
import { isSendKey } from '@/lib/keyboard';
import { truncateText } from '@/lib/messaging-format';
import { useRespondToMessage } from '../api/respond-to-message';

/** Answer one customer message; the answer is stored and sent through the message's channel. */
export function RespondDialog({ message, senderName }: { message: MessageView; senderName: string }) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const respond = useRespondToMessage();

  const submit = () => {
    const parsed = sendMessageInput.safeParse({ text });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    respond.mutate(
      { messageId: message.id, text: parsed.data.text },
      {
        onSuccess: () => {
          toast.success('Response Sent');
          setText('');
          setOpen(false);
        },
        onError: (err) => {
          const windowClosed = isApiError(err) && err.reason === 'window_closed';
          if (windowClosed) setError(CONVERSATION_MESSAGES.windowClosed);
          toast.error('Error', { description: windowClosed ? CONVERSATION_MESSAGES.windowClosed : 'Failed to send response' });
        },
      },
    );
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setError(undefined);
      }}
    >
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" aria-label={`Respond to ${senderName}`}>
          <Reply aria-hidden />
          Respond
        </Button>
      </DialogTrigger>
      <DialogContent>
        <form
          noValidate
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <DialogHeader>
            <DialogTitle>Respond to {senderName}</DialogTitle>
            <DialogDescription>Your response is sent through the channel the message came from.</DialogDescription>
          </DialogHeader>
          <blockquote className="rounded-md border-l-2 border-primary bg-muted/40 px-3 py-2 text-sm text-muted-foreground">
            {truncateText(message.content, 300)}
          </blockquote>
          <FormField id={`respond-${message.id}`} label="Response" error={error}>
            <Textarea
              {...fieldA11y(`respond-${message.id}`, error)}
              value={text}
              maxLength={MESSAGE_MAX}
              rows={4}
              onChange={(event) => {
                setText(event.target.value);
                setError(undefined);
              }}
              onKeyDown={(event) => {
                if (isSendKey(event)) {
                  event.preventDefault();
                  submit();
                }
              }}
            />
          </FormField>
          <DialogFooter>
            <Button type="submit" disabled={respond.isPending || text.trim() === ''}>
              {respond.isPending ? 'Sending...' : 'Send Response'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
