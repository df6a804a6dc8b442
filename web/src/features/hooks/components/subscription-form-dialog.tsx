import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { isInstallationEvent, PUBLIC_EVENT_TYPES } from '@common/api/events';
import { createSubscriptionInput, updateSubscriptionInput, type SubscriptionView } from '@common/api/hooks';
import type { Role } from '@common/roles';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FieldError, fieldA11y, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { useClientList } from '@/lib/api/clients';
import { errorMessage } from '@/lib/api-client';
import { useCreateSubscription } from '../api/create-subscription';
import { useUpdateSubscription } from '../api/update-subscription';
import { EVENT_DESCRIPTIONS, eventsOf, fieldErrorsOf, selectionOf, toggleEvent, type EventsSelection } from '../lib/webhooks';

/** The client select's value for "every client's events" (a Select item may not have an empty value). */
export const ALL_CLIENTS = 'all-clients';

type Field = 'name' | 'url' | 'events' | 'client_id';
type Errors = Partial<Record<Field, string>>;

function issuesToErrors(issues: readonly { path: readonly PropertyKey[]; message: string }[]): Errors {
  const errors: Errors = {};
  for (const issue of issues) {
    const field = issue.path[0];
    if ((field === 'name' || field === 'url' || field === 'events' || field === 'client_id') && errors[field] === undefined) errors[field] = issue.message;
  }
  return errors;
}

/**
 * The events choice: all (also events added later), or checkboxes of the catalogue. `clientScoped`
 * (a subscription of one client): installation-wide events (no client's) are not offered, unless
 * already checked (so they can be unchecked; the server refuses them).
 */
export function EventsPicker({
  value,
  onChange,
  error,
  clientScoped = false,
}: {
  value: EventsSelection;
  onChange: (next: EventsSelection) => void;
  error?: string | undefined;
  clientScoped?: boolean;
}) {
  const offered = PUBLIC_EVENT_TYPES.filter((type) => !clientScoped || !isInstallationEvent(type) || value.selected.includes(type));
  return (
    <fieldset className="grid min-w-0 gap-2" aria-describedby={error ? 'subscription-events-error' : undefined}>
      <legend className="mb-1 text-sm font-medium">Events</legend>
      <label className="flex items-center gap-2 text-sm">
        <input type="radio" name="subscription-events-mode" className="size-4 accent-primary" checked={value.mode === 'all'} onChange={() => onChange({ mode: 'all', selected: value.selected })} />
        All events, including ones added later
      </label>
      <label className="flex items-center gap-2 text-sm">
        <input type="radio" name="subscription-events-mode" className="size-4 accent-primary" checked={value.mode === 'some'} onChange={() => onChange({ mode: 'some', selected: value.selected })} />
        Only the events I choose
      </label>
      {value.mode === 'some' ? (
        <ul className="grid max-h-64 gap-2 overflow-y-auto rounded-md border p-3">
          {offered.map((type) => (
            <li key={type}>
              <label className="flex items-start gap-2 text-sm">
                <input
                  type="checkbox"
                  className="mt-0.5 size-4 shrink-0 accent-primary"
                  checked={value.selected.includes(type)}
                  onChange={(e) => onChange(toggleEvent(value, type, e.target.checked))}
                />
                <span className="grid min-w-0">
                  <span className="font-mono text-xs break-all">{type}</span>
                  <span className="text-xs text-muted-foreground">{EVENT_DESCRIPTIONS[type]}</span>
                </span>
              </label>
            </li>
          ))}
        </ul>
      ) : null}
      {error ? <FieldError id="subscription-events-error">{error}</FieldError> : null}
    </fieldset>
  );
}

/** Managers must scope a subscription to one client; the server says the same. */
export const CHOOSE_CLIENT = 'Choose a client';

/**
 * Create (no `subscription`) or edit a webhook subscription. Admins choose the client whose events it
 * receives, or every client's; managers choose a client; a client user's subscription is always its
 * own business's, which the server decides. The client of an existing subscription does not change.
 */
export function SubscriptionFormDialog({
  open,
  onOpenChange,
  subscription,
  role,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  subscription?: SubscriptionView | undefined;
  role: Role;
  /** After creation, with the signing secret to show once. */
  onCreated: (secret: string) => void;
}) {
  const editing = subscription !== undefined;
  const choosesClient = role !== 'client';
  const mayChooseAll = role === 'admin';
  const create = useCreateSubscription();
  const update = useUpdateSubscription();
  const clients = useClientList({ enabled: open && choosesClient && !editing });
  const [name, setName] = useState(subscription?.name ?? '');
  const [url, setUrl] = useState(subscription?.url ?? '');
  const [events, setEvents] = useState<EventsSelection>(selectionOf(subscription?.events ?? 'all'));
  const [clientId, setClientId] = useState(mayChooseAll ? ALL_CLIENTS : '');
  const [errors, setErrors] = useState<Errors>({});
  const pending = create.isPending || update.isPending;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const chosen = eventsOf(events);
    const candidate = {
      name,
      url,
      events: chosen.ok ? chosen.events : 'all',
      ...(choosesClient && !editing && clientId !== '' ? { client_id: clientId === ALL_CLIENTS ? null : clientId } : {}),
    };
    const parsed = editing ? updateSubscriptionInput.safeParse(candidate) : createSubscriptionInput.safeParse(candidate);
    const found: Errors = parsed.success ? {} : issuesToErrors(parsed.error.issues);
    if (!chosen.ok) found.events = chosen.error;
    if (choosesClient && !editing && clientId === '') found.client_id = CHOOSE_CLIENT;
    if (Object.keys(found).length > 0) {
      setErrors(found);
      return;
    }
    setErrors({});
    const onError = (error: Error) => {
      setErrors(fieldErrorsOf(error, ['name', 'url', 'events', 'client_id']));
      toast.error('Error', { description: errorMessage(error, editing ? 'The subscription could not be saved.' : 'The subscription could not be created.') });
    };
    if (editing) {
      update.mutate(
        { id: subscription.id, name: candidate.name, url: candidate.url, events: candidate.events },
        {
          onSuccess: (saved) => {
            toast.success('Subscription updated', { description: saved.name });
            onOpenChange(false);
          },
          onError,
        },
      );
      return;
    }
    create.mutate(candidate, {
      onSuccess: (created) => {
        toast.success('Subscription created', { description: created.subscription.name });
        onOpenChange(false);
        onCreated(created.signing_secret);
      },
      onError,
    });
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <form noValidate onSubmit={submit} className="grid min-w-0 gap-4">
          <DialogHeader>
            <DialogTitle>{editing ? 'Edit Subscription' : 'Add Subscription'}</DialogTitle>
            <DialogDescription>Parley POSTs each chosen event to the URL as signed JSON.</DialogDescription>
          </DialogHeader>
          <FormField id="subscription-name" label="Name" error={errors.name}>
            <Input {...fieldA11y('subscription-name', errors.name)} autoComplete="off" placeholder="CRM sync" value={name} onChange={(e) => setName(e.target.value)} />
          </FormField>
          <FormField id="subscription-url" label="URL" error={errors.url}>
            <Input
              {...fieldA11y('subscription-url', errors.url)}
              type="url"
              inputMode="url"
              autoComplete="off"
              placeholder="https://example.com/parley-events"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
            />
          </FormField>
          <EventsPicker
            value={events}
            onChange={setEvents}
            error={errors.events}
            clientScoped={role === 'client' || (editing ? subscription.client_id !== null : clientId !== ALL_CLIENTS)}
          />
          {choosesClient && !editing ? (
            <FormField id="subscription-client" label="Client" error={errors.client_id}>
              <Select value={clientId} onValueChange={setClientId}>
                <SelectTrigger className="w-full" {...fieldA11y('subscription-client', errors.client_id)}>
                  <SelectValue placeholder={CHOOSE_CLIENT} />
                </SelectTrigger>
                <SelectContent>
                  {mayChooseAll ? <SelectItem value={ALL_CLIENTS}>All clients</SelectItem> : null}
                  {(clients.data ?? []).map((client) => (
                    <SelectItem key={client.id} value={client.id}>
                      {client.companyName}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </FormField>
          ) : null}
          {editing && choosesClient ? (
            <p className="text-sm text-muted-foreground">Client: {subscription.client_name ?? 'All clients'}</p>
          ) : null}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? 'Saving...' : editing ? 'Save Subscription' : 'Create Subscription'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
