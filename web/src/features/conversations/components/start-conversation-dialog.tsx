import { zodResolver } from '@hookform/resolvers/zod';
import { Info, Plus } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { CONVERSATION_MESSAGES, MESSAGE_MAX, startConversationInput, type ConversationView } from '@common/api/conversations';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { fieldA11y, FormField } from '@/components/ui/form-field';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage, isApiError } from '@/lib/api-client';
import { CHANNEL_KIND_LABEL } from '@common/messaging/channel-label';
import { contactLabel } from '@/lib/messaging-format';
import { useClientList } from '@/lib/api/clients';
import { useContacts } from '../api/find-contacts';
import { useStartConversation } from '../api/start-conversation';

/** Spec part 1 §5: "Start chat with no client selected". */
export const SELECT_CLIENT_MESSAGE = 'Please select a client to start chatting with them.';

const startForm = z.object({
  clientId: z.string().min(1, { error: SELECT_CLIENT_MESSAGE }),
  contactId: startConversationInput.shape.contactId,
  text: startConversationInput.shape.text,
});
type StartForm = z.input<typeof startForm>;
const EMPTY: StartForm = { clientId: '', contactId: '', text: '' };

export function StartConversationDialog({ onStarted }: { onStarted: (conversation: ConversationView) => void }) {
  const [open, setOpen] = useState(false);
  const clients = useClientList({ enabled: open });
  const start = useStartConversation();
  const form = useForm<StartForm, unknown, z.output<typeof startForm>>({ resolver: zodResolver(startForm), defaultValues: EMPTY });
  const { errors } = form.formState;
  const clientId = useWatch({ control: form.control, name: 'clientId' });
  const contactId = useWatch({ control: form.control, name: 'contactId' });
  const contacts = useContacts(clientId === '' ? null : clientId);
  const contact = contacts.data?.find((c) => c.id === contactId);
  const cannotStart = contact !== undefined && !contact.canStart;
  // A client user has one business: it is chosen for them.
  const onlyClient = clients.data?.length === 1 ? clients.data[0]?.id : undefined;
  useEffect(() => {
    if (open && onlyClient !== undefined && form.getValues('clientId') === '') form.setValue('clientId', onlyClient);
  }, [open, onlyClient, form]);

  const close = () => {
    setOpen(false);
    form.reset(EMPTY);
    start.reset();
  };

  const onSubmit = form.handleSubmit((values) => {
    const clientName = clients.data?.find((c) => c.id === values.clientId)?.companyName ?? 'the client';
    start.mutate(
      { contactId: values.contactId, text: values.text },
      {
        onSuccess: (conversation) => {
          toast.success(`Started conversation with ${clientName}`);
          close();
          onStarted(conversation);
        },
        onError: (error) => {
          if (isApiError(error) && error.reason === 'business_cannot_start') {
            form.setError('contactId', { type: 'server', message: CONVERSATION_MESSAGES.businessCannotStart });
            return;
          }
          if (isApiError(error) && error.fields?.['text']) form.setError('text', { type: 'server', message: error.fields['text'] });
          toast.error('Error', { description: errorMessage(error, 'The conversation could not be started.') });
        },
      },
    );
  });

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? setOpen(true) : close())}>
      <DialogTrigger asChild>
        <Button className="w-full">
          <Plus aria-hidden />
          Start New Conversation
        </Button>
      </DialogTrigger>
      <DialogContent>
        <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-4">
          <DialogHeader>
            <DialogTitle>Start New Conversation</DialogTitle>
            <DialogDescription>Pick a client and one of its customers, and write the first message.</DialogDescription>
          </DialogHeader>

          <FormField id="start-client" label="Client" error={errors.clientId?.message}>
            <Controller
              control={form.control}
              name="clientId"
              render={({ field }) => (
                <Select
                  value={field.value}
                  onValueChange={(value) => {
                    field.onChange(value);
                    form.setValue('contactId', '');
                    form.clearErrors(['clientId', 'contactId']);
                  }}
                >
                  <SelectTrigger {...fieldA11y('start-client', errors.clientId?.message)} className="w-full">
                    <SelectValue placeholder={clients.isPending ? 'Loading clients...' : 'Select a client'} />
                  </SelectTrigger>
                  <SelectContent>
                    {(clients.data ?? []).map((client) => (
                      <SelectItem key={client.id} value={client.id}>
                        {client.companyName}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              )}
            />
            {clients.isSuccess && clients.data.length === 0 ? (
              <p className="text-xs text-muted-foreground">No clients yet. Add one under All Clients first.</p>
            ) : null}
            {clients.isError ? <p className="text-xs text-destructive">{errorMessage(clients.error, 'The clients could not be loaded.')}</p> : null}
          </FormField>

          {clientId !== '' ? (
            <FormField id="start-contact" label="Contact" error={errors.contactId?.message}>
              <Controller
                control={form.control}
                name="contactId"
                render={({ field }) => (
                  <Select
                    value={field.value}
                    onValueChange={(value) => {
                      field.onChange(value);
                      form.clearErrors('contactId');
                    }}
                  >
                    <SelectTrigger {...fieldA11y('start-contact', errors.contactId?.message)} className="w-full">
                      <SelectValue placeholder={contacts.isPending ? 'Loading contacts...' : 'Select a contact'} />
                    </SelectTrigger>
                    <SelectContent>
                      {(contacts.data ?? []).map((c) => (
                        <SelectItem key={c.id} value={c.id}>
                          {contactLabel(c, c.platform)} · {CHANNEL_KIND_LABEL[c.platform]}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                )}
              />
              {contacts.isSuccess && contacts.data.length === 0 ? (
                <p className="text-xs text-muted-foreground">
                  This client has no contacts yet. A contact appears when a customer first writes through one of its channels.
                </p>
              ) : null}
            </FormField>
          ) : null}

          {cannotStart && errors.contactId?.message !== CONVERSATION_MESSAGES.businessCannotStart ? (
            <p role="note" className="flex items-start gap-2 rounded-md border bg-muted/40 p-3 text-sm text-muted-foreground">
              <Info aria-hidden className="mt-0.5 size-4 shrink-0" />
              {CONVERSATION_MESSAGES.businessCannotStart}
            </p>
          ) : null}

          <FormField id="start-text" label="Message" error={errors.text?.message}>
            <Textarea {...fieldA11y('start-text', errors.text?.message)} maxLength={MESSAGE_MAX} rows={3} {...form.register('text')} />
          </FormField>

          <DialogFooter>
            <Button type="submit" disabled={start.isPending || cannotStart}>
              {start.isPending ? 'Starting...' : 'Start Chat'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
