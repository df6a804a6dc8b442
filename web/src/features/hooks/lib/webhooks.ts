/**
 * The Webhooks page's rules (spec part 2 "Webhooks page", §5 "Webhook test", §8, §9; issue 14 §6),
 * as data and pure functions so they are tested without a browser: URL truncation, the test form's
 * default body and checks, the wording of a test's result, the events selection, and the labels of
 * subscription and delivery statuses.
 */
import { PUBLIC_EVENT_TYPES, type PublicEventType } from '@common/api/events';
import {
  DELIVERY_TIMEOUT_MS,
  subscriptionEvents,
  WEBHOOK_URL_DISPLAY_MAX,
  webhookTestInput,
  type DeliveryView,
  type SubscriptionView,
  type WebhookTestResult,
} from '@common/api/hooks';
import { errorMessage, isApiError } from '@/lib/api-client';

/** Spec §9: URLs in the list are shown truncated at 50 characters (the full URL in the title). */
export function truncateUrl(url: string, max: number = WEBHOOK_URL_DISPLAY_MAX): string {
  return url.length > max ? `${url.slice(0, max)}...` : url;
}

/** Spec §7: the test body's default fields are message, timestamp and source, pretty-printed. */
export function defaultTestBody(now: Date = new Date()): string {
  return JSON.stringify({ message: 'Test webhook from Parley', timestamp: now.toISOString(), source: 'parley-webhooks-page' }, null, 2);
}

/** Spec §5 'Webhook test': the URL is required. */
export const URL_REQUIRED = 'Please enter a webhook URL';

export type TestFormErrors = Partial<Record<'url' | 'body', string>>;

/** Checks the test form before anything is sent: answers the field errors, or the request. */
export function checkTestForm(values: { url: string; body: string }): { ok: true; input: { url: string; body: string } } | { ok: false; errors: TestFormErrors } {
  const errors: TestFormErrors = {};
  if (values.url.trim() === '') errors.url = URL_REQUIRED;
  const parsed = webhookTestInput.safeParse(values);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if ((field === 'url' || field === 'body') && errors[field] === undefined) errors[field] = issue.message;
    }
  }
  if (errors.body !== undefined) {
    // Say where the JSON breaks: the parser's own words.
    try {
      JSON.parse(values.body);
    } catch (error) {
      if (error instanceof SyntaxError) errors.body = `Body must be valid JSON: ${error.message}`;
    }
  }
  if (!parsed.success || Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, input: parsed.data };
}

/** The spec's failure toast: only when no answer could be read. */
export const REQUEST_SENT = {
  title: 'Request Sent',
  description: 'The webhook request was sent. Please check your endpoint to confirm receipt.',
} as const;

export type TestOutcome =
  | { kind: 'triggered'; title: 'Webhook Triggered'; description: string }
  | { kind: 'failed'; title: 'Webhook Failed'; description: string }
  | { kind: 'sent'; title: typeof REQUEST_SENT.title; description: string };

function looksLikeTimeout(result: WebhookTestResult): boolean {
  if (result.error === null) return true;
  return /no answer within|time(d)?[\s-]?out|aborted/iu.test(result.error) || result.duration_ms >= DELIVERY_TIMEOUT_MS;
}

/**
 * How the page tells a test's result: 'Webhook Triggered' on 2xx; the endpoint's real answer when it
 * gave one; the spec's 'Request Sent' only when the request went out but no answer could be read
 * (a timeout). A request that never left (refused connection, unknown host) is a failure with the
 * error: saying "sent" would not be true.
 */
export function testOutcome(result: WebhookTestResult): TestOutcome {
  if (result.ok) {
    return { kind: 'triggered', title: 'Webhook Triggered', description: `The endpoint answered ${result.status ?? '2xx'} in ${result.duration_ms} ms.` };
  }
  if (result.status !== null) {
    return { kind: 'failed', title: 'Webhook Failed', description: `The endpoint answered ${result.status} in ${result.duration_ms} ms.` };
  }
  if (looksLikeTimeout(result)) return { kind: 'sent', ...REQUEST_SENT };
  return { kind: 'failed', title: 'Webhook Failed', description: result.error ?? 'No answer was received.' };
}

/** A test Parley refused to send (a blocked address, a malformed request): the server's words. */
export function testRefusal(error: unknown): { title: 'Webhook Failed'; description: string } {
  return { title: 'Webhook Failed', description: errorMessage(error, 'The test request could not be sent. Please try again.') };
}

/** The field errors a refused request carries, for the form. */
export function fieldErrorsOf(error: unknown, fields: readonly string[]): Record<string, string> {
  if (!isApiError(error) || !error.fields) return {};
  return Object.fromEntries(fields.flatMap((field) => (error.fields?.[field] ? [[field, error.fields[field]]] : [])));
}

/* ---------- events ---------- */

/** What each public event means, for the form's checkboxes and the guide's catalogue. */
export const EVENT_DESCRIPTIONS: Readonly<Record<PublicEventType, string>> = {
  'message.received': 'A customer sent a message.',
  'message.sent': 'A message went out to a customer, from the AI agent or a person.',
  'message.failed': 'A message to a customer could not be delivered; the payload says why.',
  'conversation.created': 'A new conversation started.',
  'conversation.escalated': 'A conversation was handed to a person, with the reason.',
  'conversation.resolved': 'A conversation was marked resolved.',
  'conversation.reopened': 'A resolved conversation opened again: by a new customer message, or by a person or a workflow.',
  'contact.created': 'A customer wrote to the business for the first time.',
  'lead.qualified': 'A conversation became a lead: the customer shared an e-mail address or phone number, or showed purchase intent.',
  'automation.execution.finished': 'An automation run ended: success, error or canceled.',
  'contact_form.submitted': 'A visitor sent the website’s contact form. Belongs to no client: only subscriptions for all clients receive it.',
};

/** The form's events choice: every event (also those added later), or the checked ones. */
export interface EventsSelection {
  mode: 'all' | 'some';
  selected: readonly PublicEventType[];
}

export function selectionOf(events: SubscriptionView['events']): EventsSelection {
  return events === 'all' ? { mode: 'all', selected: [] } : { mode: 'some', selected: PUBLIC_EVENT_TYPES.filter((type) => events.includes(type)) };
}

/** The contract's `events`: 'all', or the checked types in catalogue order; an error when none is checked. */
export function eventsOf(selection: EventsSelection): { ok: true; events: SubscriptionView['events'] } | { ok: false; error: string } {
  if (selection.mode === 'all') return { ok: true, events: 'all' };
  const parsed = subscriptionEvents.safeParse(PUBLIC_EVENT_TYPES.filter((type) => selection.selected.includes(type)));
  return parsed.success ? { ok: true, events: parsed.data } : { ok: false, error: parsed.error.issues[0]?.message ?? 'Choose at least one event' };
}

export function toggleEvent(selection: EventsSelection, type: PublicEventType, checked: boolean): EventsSelection {
  const rest = selection.selected.filter((t) => t !== type);
  return { mode: 'some', selected: checked ? PUBLIC_EVENT_TYPES.filter((t) => t === type || rest.includes(t)) : rest };
}

/** "All events", or the list. */
export function eventsLabel(events: SubscriptionView['events']): string {
  return events === 'all' ? 'All events' : events.join(', ');
}

/* ---------- statuses ---------- */

export const SUBSCRIPTION_STATUS_LABEL: Readonly<Record<SubscriptionView['status'], string>> = { active: 'Active', inactive: 'Inactive' };

/** The toggle: Pause an active subscription, Resume an inactive one. */
export function toggleOf(status: SubscriptionView['status']): { label: 'Pause' | 'Resume'; next: SubscriptionView['status'] } {
  return status === 'active' ? { label: 'Pause', next: 'inactive' } : { label: 'Resume', next: 'active' };
}

export const DELIVERY_STATUS_LABEL: Readonly<Record<DeliveryView['status'], string>> = {
  pending: 'Pending',
  retrying: 'Retrying',
  succeeded: 'Succeeded',
  failed: 'Failed',
};

export const DELIVERY_STATUS_TONE: Readonly<Record<DeliveryView['status'], string>> = {
  pending: 'border-transparent bg-muted text-muted-foreground',
  retrying: 'border-warning/30 bg-warning/15 text-warning',
  succeeded: 'border-success/30 bg-success/15 text-success',
  failed: 'border-destructive/30 bg-destructive/15 text-destructive',
};

/** The toast after 'Send test event' or 'Redeliver', from the delivery the server answered. */
export function deliveryToast(delivery: DeliveryView, action: 'test' | 'redeliver'): { kind: 'success' | 'error' | 'info'; title: string; description: string } {
  const noun = action === 'test' ? 'Test event' : 'Redelivery';
  const answered = delivery.last_status === null ? null : `The endpoint answered ${delivery.last_status}.`;
  switch (delivery.status) {
    case 'succeeded':
      return { kind: 'success', title: `${noun} delivered`, description: answered ?? 'The endpoint accepted it.' };
    case 'failed':
      return { kind: 'error', title: `${noun} failed`, description: answered ?? delivery.last_error ?? 'The endpoint did not answer.' };
    case 'retrying':
      return { kind: 'info', title: `${noun} will be retried`, description: answered ?? delivery.last_error ?? 'The endpoint did not answer; Parley tries again.' };
    case 'pending':
      return { kind: 'info', title: `${noun} queued`, description: 'Parley delivers it in a moment; the delivery log shows the result.' };
  }
}
