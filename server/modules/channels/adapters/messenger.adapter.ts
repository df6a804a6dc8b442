/**
 * Messenger (a Facebook Page). Webhooks: `{object: "page", entry[{id: PAGE_ID, messaging[]}]}`;
 * each messaging item is a message, an echo of what the page sent (`message.is_echo`, with the
 * Send API's `metadata`), a delivery or read watermark, or a reaction
 * (https://developers.facebook.com/docs/messenger-platform/webhooks). Instagram uses the same item
 * format (instagram.adapter.ts reuses `parseMessagingDelivery`). Sends: `POST /{page-id}/messages`.
 */
import { z } from 'zod';
import type { MessageMedia, MessageType } from '../../../db/schema';
import type { ChannelWithSecrets, ContactProfile, MetaChannelAdapter, NormalizedEvent, OutboundText } from './channel-adapter';
import {
  accessToken,
  attachmentMessageType,
  clip,
  credentialsFailure,
  type GraphApiConfig,
  graphRequest,
  idSchema,
  issueSummary,
  METADATA_PREFIX,
  ourMessageIdFrom,
  parseTimestamp,
  unexpectedAnswer,
} from './meta';

const envelope = z.object({ object: z.string().optional(), entry: z.array(z.unknown()) });
const entrySchema = z
  .object({
    id: idSchema.optional(),
    time: z.union([z.string(), z.number()]).optional(),
    messaging: z.array(z.unknown()).optional(),
    standby: z.array(z.unknown()).optional(),
    changes: z.array(z.unknown()).optional(),
  })
  .loose();
const party = z.object({ id: idSchema }).loose();
const stamp = z.union([z.string(), z.number()]);

const attachmentSchema = z
  .object({
    type: z.string(),
    payload: z
      .object({
        url: z.string().optional(),
        sticker_id: z.union([z.string(), z.number()]).optional(),
        coordinates: z.object({ lat: z.coerce.number(), long: z.coerce.number() }).loose().optional(),
      })
      .loose()
      .nullish(),
  })
  .loose();

const itemSchema = z
  .object({
    sender: party.optional(),
    recipient: party.optional(),
    timestamp: stamp.optional(),
    message: z
      .object({
        mid: idSchema,
        text: z.string().optional(),
        is_echo: z.boolean().optional(),
        is_deleted: z.boolean().optional(),
        is_unsupported: z.boolean().optional(),
        metadata: z.string().optional(),
        sticker_id: z.union([z.string(), z.number()]).optional(),
        attachments: z.array(attachmentSchema).optional(),
      })
      .loose()
      .optional(),
    delivery: z.object({ watermark: stamp.optional(), mids: z.array(idSchema).optional() }).loose().optional(),
    read: z.object({ watermark: stamp.optional(), mid: idSchema.optional() }).loose().optional(),
    reaction: z.object({ mid: idSchema, action: z.string().optional(), emoji: z.string().optional() }).loose().optional(),
  })
  .loose();
type Item = z.infer<typeof itemSchema>;
type ItemMessage = NonNullable<Item['message']>;

const sendAnswer = z.object({ message_id: z.string().min(1) }).loose();

export interface MessagingPlatform {
  /** For reasons in `ignored` events. */
  name: 'Messenger' | 'Instagram';
  /**
   * `entry[].changes[]` items: Instagram's dashboard "Test" button sends its sample DM this way
   * (real DMs use `messaging[]`). Returns the event to report for one change.
   */
  change(change: unknown, entryId: string | null): NormalizedEvent;
}

/** The stored messages of one `message` item: the text with the first attachment, one per further attachment. */
function messagesOf(message: ItemMessage): { externalId: string; type: MessageType; text: string; media?: MessageMedia }[] {
  const text = clip(message.text);
  if (message.is_unsupported) return [{ externalId: message.mid, type: 'unsupported', text }];
  const attachments = message.attachments ?? [];
  if (attachments.length === 0) return [{ externalId: message.mid, type: 'text', text }];
  return attachments.map((a, i) => {
    // A Messenger sticker arrives as an image attachment with a sticker_id.
    const type = message.sticker_id !== undefined && a.type === 'image' ? 'sticker' : attachmentMessageType(a.type);
    const coordinates = a.payload?.coordinates;
    const media: MessageMedia = {
      ...(a.payload?.url ? { url: clip(a.payload.url, 2048) } : {}),
      ...(coordinates ? { latitude: coordinates.lat, longitude: coordinates.long } : {}),
    };
    // One message per attachment; the further ones get ids derived from the mid, so a
    // redelivery still stores nothing new.
    return {
      externalId: i === 0 ? message.mid : `${message.mid}#${i + 1}`,
      type,
      text: i === 0 ? text : '',
      ...(Object.keys(media).length ? { media } : {}),
    };
  });
}

function itemEvents(item: Item, entryId: string | null, entryTime: Date | undefined, platform: MessagingPlatform, now: () => Date): NormalizedEvent[] {
  const echo = item.message?.is_echo === true;
  // For an echo the business is the sender; otherwise the recipient. entry.id names it too, but
  // the item's own ids are what the business and the customer are in this event.
  const business = (echo ? item.sender : item.recipient)?.id ?? entryId;
  const customer = (echo ? item.recipient : item.sender)?.id;
  const channelExternalId = business ?? null;
  if (channelExternalId === null) return [{ kind: 'ignored', channelExternalId: null, reason: 'item without a recipient or entry id' }];
  const timestamp = parseTimestamp(item.timestamp) ?? entryTime ?? now();

  if (item.message) {
    const m = item.message;
    if (customer === undefined) return [{ kind: 'ignored', channelExternalId, reason: 'message without a sender' }];
    if (m.is_deleted) return [{ kind: 'ignored', channelExternalId, reason: 'message unsent by the customer' }];
    const ourMessageId = echo ? ourMessageIdFrom(m.metadata) : null;
    return messagesOf(m).map((message) => ({
      kind: 'message',
      channelExternalId,
      contact: { externalId: customer, name: null },
      message: { ...message, timestamp },
      echo,
      ...(echo ? { ourMessageId } : {}),
    }));
  }

  if (item.read || item.delivery) {
    if (customer === undefined) return [{ kind: 'ignored', channelExternalId, reason: 'receipt without a sender' }];
    const status = item.read ? 'read' : 'delivered';
    const receipt = item.read ?? item.delivery!;
    const events: NormalizedEvent[] = [];
    // Instagram reports a read by message id; Messenger by watermark (everything sent before it).
    if ('mid' in receipt && typeof receipt.mid === 'string') {
      events.push({ kind: 'status', channelExternalId, externalMessageId: receipt.mid, status, timestamp });
    }
    const watermark = parseTimestamp(receipt.watermark);
    if (watermark) events.push({ kind: 'watermark', channelExternalId, contactExternalId: customer, status, watermark });
    else if (item.delivery?.mids) {
      for (const mid of item.delivery.mids) events.push({ kind: 'status', channelExternalId, externalMessageId: mid, status: 'delivered', timestamp });
    }
    return events.length ? events : [{ kind: 'ignored', channelExternalId, reason: `${status} receipt without a watermark or message id` }];
  }

  if (item.reaction) {
    const r = item.reaction;
    if (customer === undefined) return [{ kind: 'ignored', channelExternalId, reason: 'reaction without a sender' }];
    if (r.action === 'unreact' || !r.emoji) return [{ kind: 'ignored', channelExternalId, reason: 'reaction removed' }];
    return [
      {
        kind: 'message',
        channelExternalId,
        contact: { externalId: customer, name: null },
        // A reaction has no id of its own: the reacted message, the reacting person and the time make one.
        message: { externalId: `${r.mid}#reaction:${customer}:${timestamp.getTime()}`, type: 'reaction', text: r.emoji, timestamp },
        echo: false,
      },
    ];
  }

  const kind = Object.keys(item).find((k) => !['sender', 'recipient', 'timestamp'].includes(k)) ?? 'empty';
  return [{ kind: 'ignored', channelExternalId, reason: `${platform.name} "${kind}" events are not handled` }];
}

/** Every item of every entry of a Messenger-format delivery, normalised. Never throws. */
export function parseMessagingDelivery(body: unknown, platform: MessagingPlatform, now: () => Date = () => new Date()): NormalizedEvent[] {
  const parsed = envelope.safeParse(body);
  if (!parsed.success) {
    return [{ kind: 'ignored', channelExternalId: null, reason: `not a ${platform.name} delivery (${issueSummary(parsed.error)})` }];
  }
  const events: NormalizedEvent[] = [];
  for (const rawEntry of parsed.data.entry) {
    const entry = entrySchema.safeParse(rawEntry);
    if (!entry.success) {
      events.push({ kind: 'ignored', channelExternalId: null, reason: `entry: ${issueSummary(entry.error)}` });
      continue;
    }
    const entryId = entry.data.id ?? null;
    const entryTime = parseTimestamp(entry.data.time);
    for (const rawItem of entry.data.messaging ?? []) {
      const item = itemSchema.safeParse(rawItem);
      if (!item.success) {
        events.push({ kind: 'ignored', channelExternalId: entryId, reason: `messaging item: ${issueSummary(item.error)}` });
        continue;
      }
      events.push(...itemEvents(item.data, entryId, entryTime, platform, now));
    }
    if (entry.data.standby?.length) {
      // Handover protocol: another app owns the thread; its messages reach us again as echoes or not at all.
      events.push({ kind: 'ignored', channelExternalId: entryId, reason: `${entry.data.standby.length} standby item(s): another app owns the thread` });
    }
    for (const change of entry.data.changes ?? []) events.push(platform.change(change, entryId));
  }
  return events;
}

/**
 * The business-side ids a delivery names: each entry's id and, per item, the recipient (or the
 * sender of an echo). In real deliveries they agree; Chatwoot's fixtures name the account only
 * in the item.
 */
export function messagingChannelIds(body: unknown): string[] {
  const ids = new Set<string>();
  const entries = (body as { entry?: unknown } | null)?.entry;
  if (!Array.isArray(entries)) return [];
  const add = (v: unknown) => {
    if ((typeof v === 'string' && v !== '' && v.length <= 512) || typeof v === 'number') ids.add(String(v));
  };
  for (const entry of entries) {
    if (entry === null || typeof entry !== 'object') continue;
    const e = entry as { id?: unknown; messaging?: unknown };
    add(e.id);
    if (!Array.isArray(e.messaging)) continue;
    for (const item of e.messaging) {
      const i = item as { sender?: { id?: unknown }; recipient?: { id?: unknown }; message?: { is_echo?: unknown } } | null;
      add(i?.message?.is_echo === true ? i.sender?.id : i?.recipient?.id);
    }
  }
  return [...ids];
}

const messengerPlatform: MessagingPlatform = {
  name: 'Messenger',
  change: (_change, entryId) => ({ kind: 'ignored', channelExternalId: entryId, reason: 'Messenger "changes" (page feed) are not handled' }),
};

export function parseMessenger(body: unknown, now?: () => Date): NormalizedEvent[] {
  return parseMessagingDelivery(body, messengerPlatform, now);
}

/** The Send API body shared by Messenger and Instagram. */
export function sendApiBody(message: OutboundText, options: { metadata: boolean }) {
  return {
    recipient: { id: message.to },
    messaging_type: 'RESPONSE',
    message: { text: message.text, ...(options.metadata ? { metadata: `${METADATA_PREFIX}${message.messageId}` } : {}) },
  };
}

export async function sendThroughSendApi(
  graph: GraphApiConfig,
  path: string,
  channel: ChannelWithSecrets,
  message: OutboundText,
  options: { metadata: boolean },
  signal: AbortSignal,
): Promise<{ externalMessageId: string }> {
  const answer = await graphRequest(graph, { method: 'POST', path, accessToken: accessToken(channel), body: sendApiBody(message, options), signal });
  const parsed = sendAnswer.safeParse(answer);
  if (!parsed.success) throw unexpectedAnswer('a message_id');
  return { externalMessageId: parsed.data.message_id };
}

/** Send API sender action: the typing bubble (Messenger and Instagram). */
export async function sendTypingOn(graph: GraphApiConfig, path: string, channel: ChannelWithSecrets, to: string, signal: AbortSignal): Promise<void> {
  await graphRequest(graph, { method: 'POST', path, accessToken: accessToken(channel), body: { recipient: { id: to }, sender_action: 'typing_on' }, signal });
}

/** Names and pictures are capped like the columns' other writers cap them. */
const profileText = z.string().transform((s) => s.trim().slice(0, 200)).nullish().catch(null);
const profileUrl = z.url().max(2048).nullish().catch(null);

/**
 * Messenger's User Profile API: `GET /{PSID}?fields=first_name,last_name,profile_pic` with the
 * Page token (https://developers.facebook.com/docs/messenger-platform/identity/user-profile).
 * The picture's URL expires after a few days.
 */
const messengerProfile = z.object({ first_name: profileText, last_name: profileText, profile_pic: profileUrl }).loose();

export function fetchMessengerProfile(graph: GraphApiConfig, channel: ChannelWithSecrets, psid: string, signal: AbortSignal): Promise<ContactProfile> {
  return fetchProfile(graph, channel, psid, signal, messengerProfile, (p) => [p.first_name, p.last_name].filter(Boolean).join(' ').trim());
}

/** One User Profile API call (`GET /{id}?fields=…`, the schema's keys) and the contact's name from its answer. */
async function fetchProfile<T extends { profile_pic?: string | null | undefined }>(
  graph: GraphApiConfig,
  channel: ChannelWithSecrets,
  id: string,
  signal: AbortSignal,
  schema: z.ZodType<T> & { keyof(): { options: readonly string[] } },
  nameOf: (profile: T) => string | null | undefined,
): Promise<ContactProfile> {
  const answer = await graphRequest(graph, {
    method: 'GET',
    path: encodeURIComponent(id),
    query: { fields: schema.keyof().options.join(',') },
    accessToken: accessToken(channel),
    signal,
  });
  const parsed = schema.safeParse(answer);
  if (!parsed.success) throw unexpectedAnswer('a profile');
  return { name: nameOf(parsed.data) || null, avatarUrl: parsed.data.profile_pic ?? null };
}

/**
 * Instagram's User Profile API (Messenger Platform, Page token): `GET
 * /{IGSID}?fields=name,username,profile_pic`
 * (https://developers.facebook.com/docs/messenger-platform/instagram/features/user-profile).
 * The name can be empty; the username (v14.0 and later) stands in for it then.
 */
const instagramProfile = z.object({ name: profileText, username: profileText, profile_pic: profileUrl }).loose();

export function fetchInstagramProfile(graph: GraphApiConfig, channel: ChannelWithSecrets, igsid: string, signal: AbortSignal): Promise<ContactProfile> {
  return fetchProfile(graph, channel, igsid, signal, instagramProfile, (p) => p.name || (p.username ? `@${p.username}` : null));
}

export function createMessengerAdapter(graph: GraphApiConfig): MetaChannelAdapter {
  return {
    kind: 'messenger',
    webhookObject: 'page',
    channelIdsOf: messagingChannelIds,
    parse: (body) => parseMessenger(body),

    sendText: (channel, message, signal) =>
      sendThroughSendApi(graph, `${encodeURIComponent(channel.externalId ?? '')}/messages`, channel, message, { metadata: true }, signal),

    sendTyping: (channel, input, signal) => sendTypingOn(graph, `${encodeURIComponent(channel.externalId ?? '')}/messages`, channel, input.to, signal),

    fetchProfile: (channel, psid, signal) => fetchMessengerProfile(graph, channel, psid, signal),

    async testCredentials(channel, signal) {
      try {
        const answer = z
          .object({ name: z.string().optional() })
          .loose()
          .safeParse(
            await graphRequest(graph, {
              method: 'GET',
              path: encodeURIComponent(channel.externalId ?? ''),
              query: { fields: 'id,name' },
              accessToken: accessToken(channel),
              signal,
            }),
          );
        const name = answer.success ? answer.data.name : undefined;
        return { ok: true, message: name ? `Connected to the Facebook Page "${name}".` : 'Connected to the Facebook Page.' };
      } catch (error) {
        return { ok: false, message: credentialsFailure(error) };
      }
    },
  };
}
