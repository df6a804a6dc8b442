import type { ChannelAdapter } from './channel-adapter';

/**
 * Website chat: there is no platform to call — a reply reaches the visitor through the realtime
 * event its creation publishes (and the widget's message list), so "sending" succeeds at once.
 */
export const webchatAdapter: ChannelAdapter = {
  kind: 'webchat',
  async sendText() {
    return { externalMessageId: null };
  },
  async testCredentials() {
    return { ok: true, message: 'Website chat needs no credentials.' };
  },
};
