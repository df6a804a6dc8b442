import { zodResolver } from '@hookform/resolvers/zod';
import { MessageSquarePlus } from 'lucide-react';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { toast } from 'sonner';
import type { z } from 'zod';
import { CHAT_MESSAGE_MAX, newChatInput, type chatThreadView } from '@common/api/chats';
import { roleLabel } from '@common/roles';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { fieldA11y, FormField } from '@/components/ui/form-field';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage } from '@/lib/api-client';
import { useRecipients } from '../api/find-recipients';
import { useNewChat } from '../api/new-chat';

type ChatThread = z.infer<typeof chatThreadView>;
type NewChatForm = z.input<typeof newChatInput>;
const EMPTY: NewChatForm = { recipientId: '', message: '' };

export function NewChatDialog({ onCreated, className }: { onCreated: (thread: ChatThread) => void; className?: string }) {
  const [open, setOpen] = useState(false);
  const recipients = useRecipients(open);
  const create = useNewChat();
  const form = useForm<NewChatForm, unknown, z.output<typeof newChatInput>>({ resolver: zodResolver(newChatInput), defaultValues: EMPTY });
  const { errors } = form.formState;

  const close = () => {
    setOpen(false);
    form.reset(EMPTY);
  };

  const onSubmit = form.handleSubmit((values) => {
    create.mutate(values, {
      onSuccess: (thread) => {
        toast.success('New Chat', { description: `Chat with ${thread.participant.name || thread.participant.email} started.` });
        close();
        onCreated(thread);
      },
      onError: (error) => toast.error('Error', { description: errorMessage(error, 'The chat could not be started.') }),
    });
  });

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? setOpen(true) : close())}>
      <DialogTrigger asChild>
        <Button className={className}>
          <MessageSquarePlus aria-hidden />
          New Chat
        </Button>
      </DialogTrigger>
      <DialogContent>
        <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-4">
          <DialogHeader>
            <DialogTitle>New Chat</DialogTitle>
            <DialogDescription>Choose who to write to and send the first message.</DialogDescription>
          </DialogHeader>
          <FormField id="new-chat-recipient" label="Recipient" error={errors.recipientId?.message}>
            <Controller
              control={form.control}
              name="recipientId"
              render={({ field }) => (
                <Select value={field.value} onValueChange={field.onChange}>
                  <SelectTrigger {...fieldA11y('new-chat-recipient', errors.recipientId?.message)} className="w-full">
                    <SelectValue placeholder={recipients.isPending ? 'Loading...' : 'Select a recipient'} />
                  </SelectTrigger>
                  <SelectContent>
                    {(recipients.data ?? []).map((r) => (
                      <SelectItem key={r.id} value={r.id}>
                        {r.name || r.email}
                        {r.company ? ` (${r.company})` : ''} · {roleLabel(r.role)}
                        {r.name ? <span className="text-muted-foreground"> · {r.email}</span> : null}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              )}
            />
            {recipients.isSuccess && recipients.data.length === 0 ? (
              <p className="text-xs text-muted-foreground">There is nobody to write to yet.</p>
            ) : null}
          </FormField>
          <FormField id="new-chat-message" label="Message" error={errors.message?.message}>
            <Textarea {...fieldA11y('new-chat-message', errors.message?.message)} rows={3} maxLength={CHAT_MESSAGE_MAX} {...form.register('message')} />
          </FormField>
          <DialogFooter>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending ? 'Sending...' : 'Send Message'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
