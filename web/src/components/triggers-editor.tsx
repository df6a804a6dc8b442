/**
 * The event triggers of an automation or a template (issue 14 §3): which public events run it, each
 * with optional filters — channel and conversation status (lists: any of them; none chosen: any).
 * Shared by the automation form and the template form (both features import it from here).
 * With `clients` (an automation without a client of its own, which receives every client's events)
 * each trigger also has a client filter; otherwise a stored `client_id` filter is kept as it is.
 * With `clientScoped` (an automation of a client, a template's automations) installation-wide events
 * (contact_form.submitted: no client's) are not offered — the server refuses them there.
 */
import { Plus, X } from 'lucide-react';
import { CONVERSATION_EVENT_TYPES, type AutomationEventTrigger } from '@common/api/automations';
import { channelKind, type ChannelKind } from '@common/api/channels';
import { conversationStatus, type ConversationStatus } from '@common/api/conversations';
import { isInstallationEvent, PUBLIC_EVENT_TYPES, type PublicEventType } from '@common/api/events';
import { CHANNEL_KIND_LABEL } from '@common/messaging/channel-label';
import { Button } from '@/components/ui/button';
import { FieldError } from '@/components/ui/form-field';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { cn } from '@/lib/cn';
import { STATUS_LABEL } from '@/lib/messaging-format';

export type TriggerDraft = AutomationEventTrigger;

/** What each event means, in words (the catalogue: common/api/events.ts). */
export const EVENT_LABEL: Record<PublicEventType, string> = {
  'message.received': 'A customer message arrives',
  'message.sent': 'A reply is sent',
  'message.failed': 'A reply could not be sent',
  'conversation.created': 'A conversation starts',
  'conversation.escalated': 'A conversation is handed to a person',
  'conversation.resolved': 'A conversation is resolved',
  'conversation.reopened': 'A resolved conversation is reopened',
  'contact.created': 'A new contact',
  'lead.qualified': 'A conversation becomes a lead',
  'automation.execution.finished': 'An automation run finishes',
  'contact_form.submitted': 'A visitor sends the website’s contact form',
};

const hasConversation = (event: PublicEventType) => CONVERSATION_EVENT_TYPES.includes(event);

/**
 * The events a trigger may choose: all of them, or for one client's automation (`clientScoped`)
 * all but the installation-wide ones — except the trigger's own, so the select never shows blank
 * (the server names the problem).
 */
export function triggerEventChoices(clientScoped: boolean, current: PublicEventType): PublicEventType[] {
  return PUBLIC_EVENT_TYPES.filter((event) => !clientScoped || !isInstallationEvent(event) || event === current);
}

/** A trigger without the filters its event cannot have (switching to an event without a conversation). */
export function withEvent(trigger: TriggerDraft, event: PublicEventType): TriggerDraft {
  const filters = { ...trigger.filters };
  if (!hasConversation(event)) {
    delete filters.channel;
    delete filters.conversation_status;
  }
  return Object.keys(filters).length > 0 ? { event, filters } : { event };
}

function toggled<T extends string>(list: readonly T[] | undefined, value: T): T[] | undefined {
  const next = list?.includes(value) ? list.filter((v) => v !== value) : [...(list ?? []), value];
  return next.length > 0 ? next : undefined;
}

/** The client filter's "no filter" choice (a Select item may not have an empty value). */
export const ANY_CLIENT = '__any__';

/** The trigger with its client filter set to the chosen client, or removed for "Any client". */
export function withClient(trigger: TriggerDraft, choice: string): TriggerDraft {
  return withFilter(trigger, 'client_id', choice === ANY_CLIENT ? undefined : choice);
}

function withFilter<K extends 'channel' | 'conversation_status' | 'client_id'>(trigger: TriggerDraft, key: K, value: NonNullable<TriggerDraft['filters']>[K]): TriggerDraft {
  const filters = { ...trigger.filters, [key]: value };
  if (value === undefined) delete filters[key];
  return Object.keys(filters).length > 0 ? { event: trigger.event, filters } : { event: trigger.event };
}

/** A multi-select as a row of toggle buttons (wraps at 390 px). */
function ToggleGroup<T extends string>({
  label,
  options,
  labels,
  selected,
  onToggle,
}: {
  label: string;
  options: readonly T[];
  labels: Record<T, string>;
  selected: readonly T[] | undefined;
  onToggle: (value: T) => void;
}) {
  return (
    <div role="group" aria-label={label} className="grid gap-1.5">
      <span className="text-xs text-muted-foreground">
        {label}: {selected?.length ? selected.map((v) => labels[v]).join(', ') : 'any'}
      </span>
      <div className="flex flex-wrap gap-1.5">
        {options.map((option) => {
          const on = selected?.includes(option) ?? false;
          return (
            <button
              key={option}
              type="button"
              aria-pressed={on}
              onClick={() => onToggle(option)}
              className={cn(
                'min-h-8 rounded-full border px-3 text-xs transition-colors focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
                on ? 'border-primary bg-primary text-primary-foreground' : 'bg-background hover:bg-muted',
              )}
            >
              {labels[option]}
            </button>
          );
        })}
      </div>
    </div>
  );
}

export function TriggersEditor({
  id,
  value,
  onChange,
  error,
  description,
  clients,
  clientScoped = false,
}: {
  id: string;
  value: readonly TriggerDraft[];
  onChange: (triggers: TriggerDraft[]) => void;
  error?: string | undefined;
  description?: string;
  /** Offer a client filter per trigger, among these clients. */
  clients?: readonly { id: string; name: string }[] | undefined;
  /** It receives one client's events only: no installation-wide events on offer. */
  clientScoped?: boolean;
}) {
  const replace = (index: number, trigger: TriggerDraft) => onChange(value.map((t, i) => (i === index ? trigger : t)));
  return (
    <fieldset className="grid gap-3" aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="text-sm font-medium">Triggers</legend>
      <p className="text-xs text-muted-foreground">
        {description ?? 'Events that run this automation. Each matching event starts one execution, with the event sent as its trigger.'}
      </p>
      {value.length === 0 ? <p className="text-sm text-muted-foreground">No event triggers: it runs only when started.</p> : null}
      <ul className="grid gap-3" aria-label="Event triggers">
        {value.map((trigger, index) => {
          const selectId = `${id}-${index}-event`;
          return (
            <li key={index} data-testid="trigger" className="grid min-w-0 gap-3 rounded-lg border p-3">
              <div className="flex items-end gap-2">
                <div className="grid min-w-0 flex-1 gap-1.5">
                  <Label htmlFor={selectId}>Event</Label>
                  <Select value={trigger.event} onValueChange={(event) => replace(index, withEvent(trigger, event as PublicEventType))}>
                    <SelectTrigger id={selectId} className="w-full min-w-0">
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      {triggerEventChoices(clientScoped, trigger.event).map((event) => (
                        <SelectItem key={event} value={event}>
                          {event} — {EVENT_LABEL[event]}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                </div>
                <Button
                  type="button"
                  variant="ghost"
                  size="icon"
                  aria-label={`Remove trigger ${index + 1} (${trigger.event})`}
                  onClick={() => onChange(value.filter((_, i) => i !== index))}
                >
                  <X />
                </Button>
              </div>
              {hasConversation(trigger.event) ? (
                <>
                  <ToggleGroup<ChannelKind>
                    label="Channel"
                    options={channelKind.options}
                    labels={CHANNEL_KIND_LABEL}
                    selected={trigger.filters?.channel}
                    onToggle={(kind) => replace(index, withFilter(trigger, 'channel', toggled(trigger.filters?.channel, kind)))}
                  />
                  <ToggleGroup<ConversationStatus>
                    label="Conversation status"
                    options={conversationStatus.options}
                    labels={STATUS_LABEL}
                    selected={trigger.filters?.conversation_status}
                    onToggle={(status) => replace(index, withFilter(trigger, 'conversation_status', toggled(trigger.filters?.conversation_status, status)))}
                  />
                </>
              ) : null}
              {clients ? (
                <div className="grid min-w-0 gap-1.5">
                  <Label htmlFor={`${id}-${index}-client`}>Client</Label>
                  <Select
                    value={trigger.filters?.client_id ?? ANY_CLIENT}
                    onValueChange={(client) => replace(index, withClient(trigger, client))}
                  >
                    <SelectTrigger id={`${id}-${index}-client`} className="w-full min-w-0">
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      <SelectItem value={ANY_CLIENT}>Any client</SelectItem>
                      {clients.map((client) => (
                        <SelectItem key={client.id} value={client.id}>
                          {client.name}
                        </SelectItem>
                      ))}
                      {trigger.filters?.client_id && !clients.some((c) => c.id === trigger.filters?.client_id) ? (
                        <SelectItem value={trigger.filters.client_id}>Current client</SelectItem>
                      ) : null}
                    </SelectContent>
                  </Select>
                </div>
              ) : trigger.filters?.client_id ? (
                <p className="text-xs break-all text-muted-foreground">Only events of client {trigger.filters.client_id}.</p>
              ) : null}
            </li>
          );
        })}
      </ul>
      <div>
        <Button type="button" variant="outline" size="sm" onClick={() => onChange([...value, { event: 'message.received' }])}>
          <Plus /> Add trigger
        </Button>
      </div>
      {error ? <FieldError id={`${id}-error`}>{error}</FieldError> : null}
    </fieldset>
  );
}

/** One line for a trigger: its event and filters, e.g. "conversation.escalated · WhatsApp · Escalated". */
export function describeTrigger(trigger: TriggerDraft): string {
  const parts: string[] = [trigger.event];
  if (trigger.filters?.channel?.length) parts.push(trigger.filters.channel.map((c) => CHANNEL_KIND_LABEL[c]).join(', '));
  if (trigger.filters?.conversation_status?.length) parts.push(trigger.filters.conversation_status.map((s) => STATUS_LABEL[s]).join(', '));
  if (trigger.filters?.client_id) parts.push('one client');
  return parts.join(' · ');
}

/** The first server message about the triggers (`<prefix>.N.…` fields), for the editor's error line. */
export function triggersError(fields: Record<string, string> | undefined, prefix: string): string | undefined {
  if (!fields) return undefined;
  const key = Object.keys(fields).find((k) => k === prefix || k.startsWith(`${prefix}.`));
  if (!key) return undefined;
  const match = /^\.(\d+)(?:\.|$)/u.exec(key.slice(prefix.length));
  return match ? `Trigger ${Number(match[1]) + 1}: ${fields[key]}` : fields[key];
}
