/**
 * Instagram messaging (a professional account, through the Messenger Platform). Webhooks use
 * Messenger's item format under `{object: "instagram", entry[{id: IG_ACCOUNT_ID, messaging[]}]}`,
 * with `message.is_unsupported`, `read.mid` (a read by message id, not a watermark), and the
 * dashboard "Test" event in `entry[].changes[]`
 * (https://developers.facebook.com/docs/instagram-platform/webhooks/examples).
 * Sends: the Send API at `POST /me/messages` with the page token (the token names the account;
 * the channel keeps the Instagram account id, which is not a Send API node on graph.facebook.com).
 */
import { z } from 'zod';
import type { MetaChannelAdapter, NormalizedEvent } from './channel-adapter';
import { fetchInstagramProfile, parseMessagingDelivery, messagingChannelIds, type MessagingPlatform, sendThroughSendApi, sendTypingOn } from './messenger.adapter';
import { accessToken, credentialsFailure, type GraphApiConfig, graphRequest } from './meta';

const changeSchema = z.object({ field: z.string() }).loose();

/**
 * The dashboard test payload carries sample data (made-up sender and recipient ids, "random_text"):
 * recording it would put a fake customer into a business's inbox, and the AI agent would answer
 * it. It is acknowledged and logged, never stored as a message (docs/DECISIONS.md).
 */
const instagramPlatform: MessagingPlatform = {
  name: 'Instagram',
  change(change, entryId): NormalizedEvent {
    const parsed = changeSchema.safeParse(change);
    if (parsed.success && parsed.data.field === 'messages') {
      return { kind: 'ignored', channelExternalId: entryId, reason: 'Instagram dashboard test event (sample data, not recorded)' };
    }
    return { kind: 'ignored', channelExternalId: entryId, reason: `Instagram change "${parsed.success ? parsed.data.field : '?'}" is not handled` };
  },
};

export function parseInstagram(body: unknown, now?: () => Date): NormalizedEvent[] {
  return parseMessagingDelivery(body, instagramPlatform, now);
}

export function createInstagramAdapter(graph: GraphApiConfig): MetaChannelAdapter {
  return {
    kind: 'instagram',
    webhookObject: 'instagram',
    channelIdsOf: messagingChannelIds,
    parse: (body) => parseInstagram(body),

    // Instagram's Send API documents no `metadata` (and its echoes carry none back): echoes of our
    // sends are matched by the message id of the send's answer, or by text while in flight.
    sendText: (channel, message, signal) => sendThroughSendApi(graph, 'me/messages', channel, message, { metadata: false }, signal),
    sendTyping: (channel, input, signal) => sendTypingOn(graph, 'me/messages', channel, input.to, signal),
    fetchProfile: (channel, igsid, signal) => fetchInstagramProfile(graph, channel, igsid, signal),

    async testCredentials(channel, signal) {
      try {
        const answer = z
          .object({ username: z.string().optional() })
          .loose()
          .safeParse(
            await graphRequest(graph, {
              method: 'GET',
              path: encodeURIComponent(channel.externalId ?? ''),
              query: { fields: 'id,username' },
              accessToken: accessToken(channel),
              signal,
            }),
          );
        const username = answer.success ? answer.data.username : undefined;
        return { ok: true, message: username ? `Connected to the Instagram account @${username}.` : 'Connected to the Instagram account.' };
      } catch (error) {
        return { ok: false, message: credentialsFailure(error) };
      }
    },
  };
}
