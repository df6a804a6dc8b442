import { describe, expect, it } from 'vitest';
import { envelopeSchemaFor, PUBLIC_EVENT_TYPES, publicEventData } from '@common/api/events';
import { createSubscriptionInput, WEBHOOK_URL_DISPLAY_MAX, type DeliveryView, type WebhookTestResult } from '@common/api/hooks';
import { ApiError } from '@/lib/api-client';
import { exampleEnvelope } from './event-examples';
import { NODE_SNIPPET, PYTHON_SNIPPET } from './guide';
import {
  checkTestForm,
  defaultTestBody,
  deliveryToast,
  EVENT_DESCRIPTIONS,
  eventsLabel,
  eventsOf,
  fieldErrorsOf,
  REQUEST_SENT,
  selectionOf,
  testOutcome,
  testRefusal,
  toggleEvent,
  toggleOf,
  truncateUrl,
} from './webhooks';

const result = (over: Partial<WebhookTestResult> = {}): WebhookTestResult => ({
  ok: true,
  status: 200,
  duration_ms: 42,
  response_excerpt: '{"received":true}',
  error: null,
  ...over,
});

describe('URLs in the list', () => {
  it('are truncated at 50 characters, with an ellipsis only when cut', () => {
    expect(WEBHOOK_URL_DISPLAY_MAX).toBe(50);
    const exact = `https://example.com/${'a'.repeat(30)}`;
    expect(exact).toHaveLength(50);
    expect(truncateUrl(exact)).toBe(exact);
    const long = `${exact}/more/path?token=secret`;
    expect(truncateUrl(long)).toBe(`${exact}...`);
    expect(truncateUrl('https://x.io/h')).toBe('https://x.io/h');
  });
});

describe('the test form', () => {
  it('starts with a pretty-printed JSON body of message, timestamp and source', () => {
    const now = new Date('2026-11-25T10:00:00.000Z');
    const body = defaultTestBody(now);
    expect(Object.keys(JSON.parse(body) as object)).toEqual(['message', 'timestamp', 'source']);
    expect((JSON.parse(body) as { timestamp: string }).timestamp).toBe('2026-11-25T10:00:00.000Z');
    // Pretty-printed: one field a line, indented by two spaces.
    expect(body.split('\n')).toHaveLength(5);
    expect(body).toContain('\n  "message": ');
  });

  it("needs a URL ('Please enter a webhook URL') and sends nothing without one", () => {
    const checked = checkTestForm({ url: '   ', body: defaultTestBody() });
    expect(checked).toEqual({ ok: false, errors: { url: 'Please enter a webhook URL' } });
  });

  it('refuses a body that is not JSON, saying where it breaks, and sends nothing', () => {
    const checked = checkTestForm({ url: 'https://example.com/hook', body: '{"message": "hi",}' });
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.errors.url).toBeUndefined();
    expect(checked.errors.body).toMatch(/^Body must be valid JSON: /u);
  });

  it('refuses a URL that is not http(s)', () => {
    const checked = checkTestForm({ url: 'ftp://example.com/hook', body: '{}' });
    expect(checked).toEqual({ ok: false, errors: { url: 'Enter a valid http(s) URL' } });
  });

  it('sends the body exactly as typed, the URL trimmed', () => {
    const body = '{\n  "a": 1\n}';
    expect(checkTestForm({ url: ' https://example.com/hook ', body })).toEqual({ ok: true, input: { url: 'https://example.com/hook', body } });
  });
});

describe('the wording of a test result', () => {
  it("is 'Webhook Triggered' on 2xx, with the real status and time", () => {
    expect(testOutcome(result({ status: 204 }))).toEqual({ kind: 'triggered', title: 'Webhook Triggered', description: 'The endpoint answered 204 in 42 ms.' });
  });

  it('is the real failure when the endpoint answered something else', () => {
    const outcome = testOutcome(result({ ok: false, status: 500, response_excerpt: 'boom' }));
    expect(outcome).toEqual({ kind: 'failed', title: 'Webhook Failed', description: 'The endpoint answered 500 in 42 ms.' });
    expect(testOutcome(result({ ok: false, status: 404 })).kind).toBe('failed');
  });

  it("is the spec's 'Request Sent' only when no answer could be read (a timeout)", () => {
    const timedOut = testOutcome(result({ ok: false, status: null, response_excerpt: null, error: 'Timed out after 10000 ms', duration_ms: 10_003 }));
    expect(timedOut).toEqual({ kind: 'sent', title: 'Request Sent', description: 'The webhook request was sent. Please check your endpoint to confirm receipt.' });
    expect(REQUEST_SENT.description).toBe('The webhook request was sent. Please check your endpoint to confirm receipt.');
    expect(testOutcome(result({ ok: false, status: null, error: 'The operation was aborted due to timeout', duration_ms: 9_990 })).kind).toBe('sent');
    // The hooks module's own words for a timeout.
    expect(testOutcome(result({ ok: false, status: null, error: 'No answer within 10 seconds', duration_ms: 9_999 })).kind).toBe('sent');
  });

  it('is a failure with the error when the request never left (nothing was sent)', () => {
    const refused = testOutcome(result({ ok: false, status: null, response_excerpt: null, error: 'connect ECONNREFUSED 127.0.0.1:9', duration_ms: 3 }));
    expect(refused).toEqual({ kind: 'failed', title: 'Webhook Failed', description: 'connect ECONNREFUSED 127.0.0.1:9' });
    expect(testOutcome(result({ ok: false, status: null, error: 'Could not reach the URL (ECONNREFUSED)', duration_ms: 4 }))).toMatchObject({
      kind: 'failed',
      description: 'Could not reach the URL (ECONNREFUSED)',
    });
  });

  it("tells Parley's own refusal with the server's words", () => {
    const error = new ApiError('BAD_REQUEST', 'This address is not allowed', 400, { fields: { url: 'This address is not allowed' } });
    expect(testRefusal(error)).toEqual({ title: 'Webhook Failed', description: 'This address is not allowed' });
    expect(fieldErrorsOf(error, ['url', 'body'])).toEqual({ url: 'This address is not allowed' });
    expect(testRefusal(new ApiError('INTERNAL', 'secret detail', 500)).description).toBe('The test request could not be sent. Please try again.');
  });
});

describe('the events choice', () => {
  it("maps 'all' both ways", () => {
    expect(selectionOf('all')).toEqual({ mode: 'all', selected: [] });
    expect(eventsOf({ mode: 'all', selected: ['message.sent'] })).toEqual({ ok: true, events: 'all' });
    expect(eventsLabel('all')).toBe('All events');
  });

  it('maps checked events to the contract in catalogue order, and back', () => {
    let selection = selectionOf(['lead.qualified', 'message.received']);
    expect(selection).toEqual({ mode: 'some', selected: ['message.received', 'lead.qualified'] });
    selection = toggleEvent(selection, 'conversation.escalated', true);
    selection = toggleEvent(selection, 'message.received', false);
    const events = eventsOf(selection);
    expect(events).toEqual({ ok: true, events: ['conversation.escalated', 'lead.qualified'] });
    // What the form sends is what the server accepts.
    if (events.ok) expect(createSubscriptionInput.parse({ name: 'CRM', url: 'https://crm.example.com/in', events: events.events }).events).toEqual(events.events);
  });

  it('refuses an empty choice with the contract\'s message', () => {
    expect(eventsOf({ mode: 'some', selected: [] })).toEqual({ ok: false, error: 'Choose at least one event' });
  });

  it('describes every event of the catalogue', () => {
    for (const type of PUBLIC_EVENT_TYPES) expect(EVENT_DESCRIPTIONS[type].length, type).toBeGreaterThan(10);
  });
});

describe('the example payloads of the guide', () => {
  it.each(PUBLIC_EVENT_TYPES)('%s validates against its publicEventData schema and envelope', (type) => {
    const example = exampleEnvelope(type);
    expect(example.type).toBe(type);
    expect(publicEventData[type].safeParse(example.data).error).toBeUndefined();
    expect(envelopeSchemaFor(type).safeParse(example).error).toBeUndefined();
  });
});

describe('the signature snippets', () => {
  it("use the API channel's scheme: sha256= hex HMAC of \"timestamp.raw body\" in X-Parley-Signature", () => {
    for (const snippet of [NODE_SNIPPET, PYTHON_SNIPPET]) {
      expect(snippet).toMatch(/x-parley-timestamp/iu);
      expect(snippet).toMatch(/x-parley-signature/iu);
      expect(snippet).toContain('sha256');
    }
    expect(NODE_SNIPPET).toContain("digest('hex')");
    expect(NODE_SNIPPET).toContain("'sha256=' +");
    expect(PYTHON_SNIPPET).toContain('"sha256=" + mac.hexdigest()');
    expect(PYTHON_SNIPPET).toContain('timestamp.encode() + b"." + raw_body');
  });
});

describe('statuses', () => {
  it('pause an active subscription and resume an inactive one', () => {
    expect(toggleOf('active')).toEqual({ label: 'Pause', next: 'inactive' });
    expect(toggleOf('inactive')).toEqual({ label: 'Resume', next: 'active' });
  });

  it('tell a test event or redelivery by what the endpoint answered', () => {
    const delivery = (over: Partial<DeliveryView>): DeliveryView => ({
      id: '00000000-0000-4000-8000-000000000001',
      subscription_id: '00000000-0000-4000-8000-000000000002',
      event_id: null,
      event_type: 'ping',
      status: 'succeeded',
      attempts: 1,
      next_attempt_at: null,
      last_status: 200,
      last_error: null,
      created_at: '2026-11-25T10:00:00.000Z',
      finished_at: '2026-11-25T10:00:00.100Z',
      redelivery_of: null,
      ...over,
    });
    expect(deliveryToast(delivery({}), 'test')).toEqual({ kind: 'success', title: 'Test event delivered', description: 'The endpoint answered 200.' });
    expect(deliveryToast(delivery({ status: 'failed', last_status: 401 }), 'test')).toEqual({ kind: 'error', title: 'Test event failed', description: 'The endpoint answered 401.' });
    expect(deliveryToast(delivery({ status: 'retrying', last_status: null, last_error: 'connect ECONNREFUSED' }), 'redeliver')).toMatchObject({
      kind: 'info',
      title: 'Redelivery will be retried',
      description: 'connect ECONNREFUSED',
    });
    expect(deliveryToast(delivery({ status: 'pending', attempts: 0, last_status: null }), 'redeliver').title).toBe('Redelivery queued');
  });
});
