import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { PUBLIC_EVENT_TYPES } from '@common/api/events';
import type { DeliveryAttemptView, DeliveryView, SubscriptionView } from '@common/api/hooks';
import type { Role } from '@common/roles';
import { hookKeys } from '../api/keys';
import { testOutcome } from '../lib/webhooks';
import { AttemptItem, DeliverySummary } from './delivery-log';
import { SubscriptionSummary } from './subscription-card';
import { EventsPicker } from './subscription-form-dialog';
import { TestResultCard } from './webhook-test-form';
import { NO_SUBSCRIPTIONS, NO_SUBSCRIPTIONS_TEXT, WebhooksScreen, type WebhookTab } from './webhooks-screen';

const LONG_URL = 'https://hooks.example.com/catch/1234567/abcdefghijklmnopqrstuvwxyz/parley-events';

const subscription = (over: Partial<SubscriptionView> = {}): SubscriptionView => ({
  id: '00000000-0000-4000-8000-0000000000a1',
  name: 'CRM sync',
  url: LONG_URL,
  events: ['message.received', 'lead.qualified'],
  client_id: '00000000-0000-4000-8000-0000000000c1',
  client_name: 'Acme Bakery',
  status: 'active',
  disabled_reason: null,
  source: 'portal',
  created_by: null,
  created_at: '2026-11-20T10:00:00.000Z',
  last_triggered: '2026-11-25T09:00:00.000Z',
  total_calls: 12,
  success_count: 10,
  failure_count: 2,
  consecutive_failures: 0,
  secret_prefix: 'whsec_ab12',
  ...over,
});

const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/gu, ' ')
    .replace(/&quot;/gu, '"')
    .replace(/&#x27;/gu, "'")
    .replace(/&amp;/gu, '&')
    .replace(/\s+/gu, ' ')
    .trim();

const NOW = new Date('2026-11-25T11:00:00.000Z');

describe('a subscription in the list', () => {
  it('shows the URL cut at 50 characters, with the full URL in its title', () => {
    const html = renderToStaticMarkup(<SubscriptionSummary subscription={subscription()} showClient={false} now={NOW} />);
    expect(html).toContain(`title="${LONG_URL}"`);
    expect(html).toContain(`>${LONG_URL.slice(0, 50)}...</p>`);
    expect(textOf(html)).not.toContain(LONG_URL);
  });

  it('shows name, status, events, last triggered (relative and absolute), and the call counts', () => {
    const text = textOf(renderToStaticMarkup(<SubscriptionSummary subscription={subscription()} showClient={false} now={NOW} />));
    expect(text).toContain('CRM sync');
    expect(text).toContain('Active');
    expect(text).toContain('message.received, lead.qualified');
    expect(text).toMatch(/Last triggered 2 hours ago \(.+\)/u);
    expect(text).toContain('Total calls 12 (10 succeeded, 2 failed)');
    const never = textOf(renderToStaticMarkup(<SubscriptionSummary subscription={subscription({ last_triggered: null, events: 'all' })} showClient={false} />));
    expect(never).toContain('Last triggered Never');
    expect(never).toContain('All events');
  });

  it('names the client only where every client is listed', () => {
    expect(textOf(renderToStaticMarkup(<SubscriptionSummary subscription={subscription()} showClient={false} />))).not.toContain('Acme Bakery');
    expect(textOf(renderToStaticMarkup(<SubscriptionSummary subscription={subscription()} showClient />))).toContain('Client Acme Bakery');
    expect(textOf(renderToStaticMarkup(<SubscriptionSummary subscription={subscription({ client_id: null, client_name: null })} showClient />))).toContain(
      'Client All clients',
    );
  });

  it('says why Parley turned it off', () => {
    const html = renderToStaticMarkup(
      <SubscriptionSummary subscription={subscription({ status: 'inactive', disabled_reason: '20 deliveries failed in a row since Nov 24' })} showClient={false} />,
    );
    expect(html).toContain('data-status="inactive"');
    expect(textOf(html)).toContain('Turned off by Parley: 20 deliveries failed in a row since Nov 24');
    // Paused by a person: no reason to show.
    expect(renderToStaticMarkup(<SubscriptionSummary subscription={subscription({ status: 'inactive' })} showClient={false} />)).not.toContain('Turned off');
  });
});

describe('the test result card', () => {
  it("shows 'Webhook Triggered' with the real status, time and response excerpt", () => {
    const result = { ok: true, status: 200, duration_ms: 87, response_excerpt: '{"received":true}', error: null };
    const html = renderToStaticMarkup(<TestResultCard shown={{ result, outcome: testOutcome(result) }} />);
    expect(html).toContain('data-outcome="triggered"');
    const text = textOf(html);
    expect(text).toContain('Webhook Triggered');
    expect(text).toContain('Status 200');
    expect(text).toContain('Time 87 ms');
    expect(text).toContain('{"received":true}');
  });

  it('shows the real failure, not a success', () => {
    const result = { ok: false, status: 503, duration_ms: 12, response_excerpt: 'Service Unavailable', error: null };
    const text = textOf(renderToStaticMarkup(<TestResultCard shown={{ result, outcome: testOutcome(result) }} />));
    expect(text).toContain('Webhook Failed');
    expect(text).toContain('Status 503');
    expect(text).toContain('Service Unavailable');
    expect(text).not.toContain('Triggered');
    expect(text).not.toContain('Request Sent');
  });

  it("shows 'Request Sent' when no answer could be read", () => {
    const result = { ok: false, status: null, duration_ms: 10_001, response_excerpt: null, error: 'Timed out after 10000 ms' };
    const html = renderToStaticMarkup(<TestResultCard shown={{ result, outcome: testOutcome(result) }} />);
    expect(html).toContain('data-outcome="sent"');
    expect(textOf(html)).toContain('Request Sent The webhook request was sent. Please check your endpoint to confirm receipt.');
    expect(textOf(html)).toContain('Status No answer');
  });

  it("shows Parley's refusal in its words", () => {
    const text = textOf(renderToStaticMarkup(<TestResultCard shown={{ refused: 'This address is not allowed' }} />));
    expect(text).toBe('Webhook Failed This address is not allowed');
  });
});

describe('the events picker', () => {
  it('offers every event of the catalogue as a checkbox, checked as chosen', () => {
    const html = renderToStaticMarkup(<EventsPicker value={{ mode: 'some', selected: ['lead.qualified'] }} onChange={() => {}} />);
    expect(html.match(/type="checkbox"/gu)).toHaveLength(PUBLIC_EVENT_TYPES.length);
    expect(html).toMatch(/<input type="checkbox"[^>]*checked=""[^>]*\/><span[^>]*><span[^>]*>lead\.qualified</u);
    expect(html.match(/checked=""/gu)).toHaveLength(2); // the "only the events I choose" radio and lead.qualified
    const all = renderToStaticMarkup(<EventsPicker value={{ mode: 'all', selected: [] }} onChange={() => {}} error="Choose at least one event" />);
    expect(all).not.toContain('type="checkbox"');
    expect(all).toContain('Choose at least one event');
  });

  it('offers no installation-wide event (contact_form.submitted) to a client’s subscription, unless it is checked already', () => {
    const scoped = renderToStaticMarkup(<EventsPicker value={{ mode: 'some', selected: ['lead.qualified'] }} onChange={() => {}} clientScoped />);
    expect(scoped.match(/type="checkbox"/gu)).toHaveLength(PUBLIC_EVENT_TYPES.length - 1);
    expect(scoped).not.toContain('contact_form.submitted');
    const everyClient = renderToStaticMarkup(<EventsPicker value={{ mode: 'some', selected: [] }} onChange={() => {}} />);
    expect(everyClient).toContain('contact_form.submitted');
    const checked = renderToStaticMarkup(<EventsPicker value={{ mode: 'some', selected: ['contact_form.submitted'] }} onChange={() => {}} clientScoped />);
    expect(checked).toMatch(/<input type="checkbox"[^>]*checked=""[^>]*\/><span[^>]*><span[^>]*>contact_form\.submitted</u);
  });
});

describe('the delivery log', () => {
  const delivery = (over: Partial<DeliveryView> = {}): DeliveryView => ({
    id: '00000000-0000-4000-8000-0000000000d1',
    subscription_id: '00000000-0000-4000-8000-0000000000a1',
    event_id: '00000000-0000-4000-8000-0000000000e1',
    event_type: 'message.received',
    status: 'retrying',
    attempts: 2,
    next_attempt_at: '2026-11-25T11:05:00.000Z',
    last_status: 503,
    last_error: null,
    created_at: '2026-11-25T10:59:00.000Z',
    finished_at: null,
    redelivery_of: null,
    ...over,
  });

  it('shows event type, status, attempts, last status and time of a delivery', () => {
    const html = renderToStaticMarkup(<DeliverySummary delivery={delivery()} now={NOW} />);
    expect(html).toContain('data-status="retrying"');
    const text = textOf(html);
    expect(text).toContain('message.received');
    expect(text).toContain('Retrying');
    expect(text).toContain('2 attempts');
    expect(text).toContain('Last status: 503');
    expect(text).toContain('1 minute ago');
    expect(text).toContain('Next attempt');
  });

  it('shows an attempt with its request headers and body, response status, excerpt, error and duration', () => {
    const attempt: DeliveryAttemptView = {
      id: '00000000-0000-4000-8000-0000000000f1',
      attempted_at: '2026-11-25T10:59:00.000Z',
      request_headers: { 'x-parley-event-type': 'message.received', 'x-parley-signature': 'sha256=abc' },
      request_body: '{"id":"e1","type":"message.received"}',
      response_status: 503,
      response_excerpt: 'upstream down',
      error: null,
      duration_ms: 120,
    };
    const text = textOf(renderToStaticMarkup(<AttemptItem attempt={attempt} index={1} />));
    expect(text).toContain('Attempt 1');
    expect(text).toContain('Status: 503');
    expect(text).toContain('120 ms');
    expect(text).toContain('upstream down');
    expect(text).toContain('x-parley-signature: sha256=abc');
    expect(text).toContain('"type": "message.received"');
    const failed = textOf(renderToStaticMarkup(<AttemptItem attempt={{ ...attempt, response_status: null, response_excerpt: null, error: 'connect ECONNREFUSED' }} index={2} />));
    expect(failed).toContain('Status: no answer');
    expect(failed).toContain('connect ECONNREFUSED');
  });
});

describe('the Webhooks page', () => {
  const render = (role: Role, subscriptions: SubscriptionView[] | undefined, tab: WebhookTab = 'subscriptions') => {
    const queryClient = new QueryClient();
    if (subscriptions) queryClient.setQueryData(hookKeys.subscriptions(), subscriptions);
    return renderToStaticMarkup(
      <QueryClientProvider client={queryClient}>
        <WebhooksScreen role={role} tab={tab} onTabChange={() => {}} />
      </QueryClientProvider>,
    );
  };

  it('says truly what an empty list means, and offers to add a subscription', () => {
    const text = textOf(render('client', []));
    expect(text).toContain(NO_SUBSCRIPTIONS);
    expect(text).toContain(NO_SUBSCRIPTIONS_TEXT);
    expect(text).toContain('Add Subscription');
  });

  it('lists subscriptions with their actions; the client only for admins and managers', () => {
    const client = render('client', [subscription()]);
    expect(client).toContain('data-testid="subscription"');
    for (const action of ['Delivery Log', 'Send Test Event', 'Pause', 'Edit', 'New Secret', 'Delete']) expect(textOf(client)).toContain(action);
    expect(textOf(client)).not.toContain('Acme Bakery');
    expect(textOf(render('admin', [subscription()]))).toContain('Acme Bakery');
    expect(textOf(render('manager', [subscription({ status: 'inactive' })]))).toContain('Resume');
  });

  it('has the test form and the guide in their tabs', () => {
    const test = render('client', [], 'test');
    expect(test).toContain('type="url"');
    expect(textOf(test)).toContain('"source"');
    expect(textOf(test)).toContain('Send Test');
    const guide = textOf(render('client', [], 'guide'));
    for (const type of PUBLIC_EVENT_TYPES) expect(guide).toContain(type);
    expect(guide).toContain('X-Parley-Signature');
    expect(guide).toContain('Retry-After');
    expect(guide).toContain('/api/v1/hooks');
  });
});
