/**
 * The channels module: the platforms' adapters (WhatsApp, Messenger, Instagram, the website
 * widget, custom platforms), the channels' settings and secrets, and the outbound delivery that
 * runs the messaging module's send job. It depends on messaging, never the reverse.
 */
export { checkApiSignature, signedHeaders } from './adapters/api-signature';
export { ChannelDirectory } from './channel-directory';
export { ChannelsService } from './channels.service';
export { OutboundService } from './outbound.service';
export {
  SendError,
  type ChannelAdapter,
  type ChannelSecrets,
  type ChannelWithSecrets,
  type MetaChannelAdapter,
  type NormalizedEvent,
  type OutboundText,
  type TypingInput,
} from './adapters/channel-adapter';
