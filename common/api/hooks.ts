/**
 * Outbound webhook subscriptions, their deliveries, Zapier REST hooks and the Webhooks page's test
 * (issue 14 §2, §5, §6; spec part 2 "Webhooks page", §3 Webhook entity, §7 "Webhook test", §8).
 * Server: server/modules/hooks. Field names are snake_case like the event payloads.
 *
 * Subscriptions (session, or API key with scope webhooks:manage):
 *   GET    /api/v1/webhook-subscriptions                 -> subscriptionsResponse (client users: their client's; admins/managers: all)
 *   POST   /api/v1/webhook-subscriptions                 createSubscriptionInput -> createdSubscription (201; the signing secret shown once)
 *   GET    /api/v1/webhook-subscriptions/:id             -> subscriptionView
 *   PATCH  /api/v1/webhook-subscriptions/:id             updateSubscriptionInput -> subscriptionView
 *   DELETE /api/v1/webhook-subscriptions/:id             204
 *   POST   /api/v1/webhook-subscriptions/:id/rotate-secret -> createdSubscription (the new secret shown once)
 *   POST   /api/v1/webhook-subscriptions/:id/test        -> deliveryView (201; a `ping` test event delivered now, logged)
 *   GET    /api/v1/webhook-subscriptions/:id/deliveries  deliveriesQuery -> deliveriesResponse (newest first)
 *   GET    /api/v1/webhook-deliveries/:id                -> deliveryDetail (every attempt with request and response)
 *   POST   /api/v1/webhook-deliveries/:id/redeliver      -> deliveryView (201; a new delivery of the same event)
 *
 * The page's test form (any signed-in user; spec §7 "Webhook test", sent server-side):
 *   POST   /api/v1/webhooks/test                         webhookTestInput -> webhookTestResult
 *
 * REST hooks, the protocol Zapier's triggers use (API key or session):
 *   POST   /api/v1/hooks                                 restHookInput -> { id } (201)
 *   DELETE /api/v1/hooks/:id                             204
 *   GET    /api/v1/hooks/samples/:event                  -> array of envelopes (recent real ones the caller may see, else the documented example)
 *   GET    /api/v1/me                                    the authentication test (profile module)
 *
 * A client user (or a client user's key) gets 404 for another client's subscription or delivery.
 */
import { z } from 'zod';
import { publicEventType } from './events';

const isoDate = z.iso.datetime({ offset: true });

/** Spec §6: the list shows URLs truncated at this many characters. */
export const WEBHOOK_URL_DISPLAY_MAX = 50;
/** How long a failing delivery is retried. */
export const DELIVERY_RETRY_WINDOW_MS = 24 * 60 * 60_000;
export const DELIVERY_TIMEOUT_MS = 10_000;
/** The excerpt of a response body kept per attempt. */
export const RESPONSE_EXCERPT_MAX = 2_000;
/** Default: consecutive failed deliveries (over at least a day) before a subscription turns inactive. */
export const DEFAULT_AUTO_DISABLE_FAILURES = 20;

export const SUBSCRIPTION_STATUSES = ['active', 'inactive'] as const;
export const subscriptionStatus = z.enum(SUBSCRIPTION_STATUSES, { error: 'Status must be active or inactive' });

/** 'all', or a non-empty list of event types. */
export const subscriptionEvents = z.union([z.literal('all'), z.array(publicEventType).min(1, { error: 'Choose at least one event' })]);

const webhookUrl = z
  .string({ error: 'Please enter a webhook URL' })
  .trim()
  .min(1, { error: 'Please enter a webhook URL' })
  .max(2048, { error: 'URL is too long' })
  .pipe(z.url({ protocol: /^https?$/, error: 'Enter a valid http(s) URL' }));

export const subscriptionView = z.object({
  id: z.uuid(),
  name: z.string(),
  url: z.string(),
  events: subscriptionEvents,
  /** null: every client's events (admins only). */
  client_id: z.uuid().nullable(),
  client_name: z.string().nullable(),
  status: subscriptionStatus,
  /** Why it is inactive when Parley turned it off (auto-disable), else null. */
  disabled_reason: z.string().nullable(),
  /** 'rest_hook' when created through POST /api/v1/hooks (removed by a 410 from its target). */
  source: z.enum(['portal', 'rest_hook']),
  created_by: z.uuid().nullable(),
  created_at: isoDate,
  last_triggered: isoDate.nullable(),
  total_calls: z.number().int(),
  success_count: z.number().int(),
  failure_count: z.number().int(),
  consecutive_failures: z.number().int(),
  /** The first characters of the signing secret, to tell secrets apart. */
  secret_prefix: z.string(),
});
export type SubscriptionView = z.infer<typeof subscriptionView>;
export const subscriptionsResponse = z.object({ subscriptions: z.array(subscriptionView) });
export const createdSubscription = z.object({ subscription: subscriptionView, signing_secret: z.string() });
export type CreatedSubscription = z.infer<typeof createdSubscription>;

export const createSubscriptionInput = z.object({
  name: z.string({ error: 'Name is required' }).trim().min(1, { error: 'Name is required' }).max(200, { error: 'Name is too long' }),
  url: webhookUrl,
  events: subscriptionEvents.default('all'),
  /** Admins may scope to a client or leave null (all); a client user's subscription is always its client's. */
  client_id: z.uuid({ error: 'Invalid client' }).nullable().optional(),
  status: subscriptionStatus.default('active'),
});
export type CreateSubscriptionInput = z.input<typeof createSubscriptionInput>;

export const updateSubscriptionInput = z
  .object({
    name: createSubscriptionInput.shape.name.optional(),
    url: webhookUrl.optional(),
    events: subscriptionEvents.optional(),
    status: subscriptionStatus.optional(),
  })
  .refine((v) => Object.keys(v).length > 0, { error: 'Nothing to update' });
export type UpdateSubscriptionInput = z.input<typeof updateSubscriptionInput>;

export const DELIVERY_STATUSES = ['pending', 'retrying', 'succeeded', 'failed'] as const;
export const deliveryStatus = z.enum(DELIVERY_STATUSES);

export const deliveryAttemptView = z.object({
  id: z.uuid(),
  attempted_at: isoDate,
  request_headers: z.record(z.string(), z.string()),
  request_body: z.string(),
  /** null when no answer was read (network error, timeout). */
  response_status: z.number().int().nullable(),
  response_excerpt: z.string().nullable(),
  error: z.string().nullable(),
  duration_ms: z.number().int(),
});
export type DeliveryAttemptView = z.infer<typeof deliveryAttemptView>;

export const deliveryView = z.object({
  id: z.uuid(),
  subscription_id: z.uuid(),
  event_id: z.uuid().nullable(),
  /** The event type, or 'ping' for a test event. */
  event_type: z.string(),
  status: deliveryStatus,
  attempts: z.number().int(),
  next_attempt_at: isoDate.nullable(),
  last_status: z.number().int().nullable(),
  last_error: z.string().nullable(),
  created_at: isoDate,
  finished_at: isoDate.nullable(),
  /** Set when this delivery is a redelivery of another. */
  redelivery_of: z.uuid().nullable(),
});
export type DeliveryView = z.infer<typeof deliveryView>;
export const deliveryDetail = deliveryView.extend({ attempt_log: z.array(deliveryAttemptView) });
export type DeliveryDetail = z.infer<typeof deliveryDetail>;

export const deliveriesQuery = z.object({
  status: deliveryStatus.optional(),
  event: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  /** Cursor: the `created_at` of the last delivery of the previous page. */
  before: isoDate.optional(),
});
export const deliveriesResponse = z.object({ deliveries: z.array(deliveryView), next_before: isoDate.nullable() });
export type DeliveriesResponse = z.infer<typeof deliveriesResponse>;

/** The Webhooks page's test form: the body is the editable JSON text, sent as typed. */
export const webhookTestInput = z.object({
  url: webhookUrl,
  body: z
    .string()
    .max(64 * 1024, { error: 'Body is too large' })
    .refine(
      (text) => {
        try {
          JSON.parse(text);
          return true;
        } catch {
          return false;
        }
      },
      { error: 'Body must be valid JSON' },
    ),
});
export type WebhookTestInput = z.input<typeof webhookTestInput>;

export const webhookTestResult = z.object({
  /** true on 2xx ('Webhook Triggered'). */
  ok: z.boolean(),
  /** null when no answer could be read ('Request Sent' wording: timeout). */
  status: z.number().int().nullable(),
  duration_ms: z.number().int(),
  response_excerpt: z.string().nullable(),
  error: z.string().nullable(),
});
export type WebhookTestResult = z.infer<typeof webhookTestResult>;

export const restHookInput = z.object({
  target_url: webhookUrl,
  event: publicEventType,
});
export const restHookCreated = z.object({ id: z.uuid() });
