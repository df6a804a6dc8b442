/**
 * The webhooks module: every inbound delivery — Meta's signed webhooks (WhatsApp, Messenger,
 * Instagram) and custom platforms' signed API calls — verified on raw bytes, kept raw, and turned
 * into messages through the messaging module.
 */
export { WebhooksService } from './webhooks.service';
export { ApiChannelService } from './api-channel.service';
