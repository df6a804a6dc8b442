/**
 * The hooks module (issue 14 §2, §5): outbound webhook subscriptions, the deliveries of public
 * events to them (signed, retried, ordered per conversation, auto-disabled when their endpoint
 * keeps failing), the delivery log, the Webhooks page's test and Zapier's REST hooks. Owns
 * webhook_subscriptions, webhook_deliveries and webhook_delivery_attempts. Its sink
 * (`HooksService.sink()`) is one of the events module's PublicEventSinks.
 */
export { HooksService, type AlertRecipient, type DeliveryHint, type HooksAlerts, type RecentEvents } from './hooks.service';
export type { FailingSubscription } from './hooks.repository';
export { deliverWebhookJob } from './deliver-webhook.job';
export { hooksRoutes } from './hooks.routes';
