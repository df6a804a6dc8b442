import type { ChannelKind } from '../api/channels';

/**
 * Each channel kind as people read it — the one map the portal and the server's messages use.
 * The `api` kind is the spec's "custom platform" (part 1, overview), also a new API channel's default name.
 */
export const CHANNEL_KIND_LABEL: Record<ChannelKind, string> = {
  whatsapp: 'WhatsApp',
  messenger: 'Messenger',
  instagram: 'Instagram',
  webchat: 'Website chat',
  api: 'Custom platform',
};
