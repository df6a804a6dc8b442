/**
 * WhatsApp Cloud API. Webhooks: `{object: "whatsapp_business_account", entry[].changes[].value}`
 * with `metadata.phone_number_id` (our channel), `contacts[]`, `messages[]` and `statuses[]`
 * (https://developers.facebook.com/docs/whatsapp/cloud-api/webhooks/components). Sends:
 * `POST /{phone-number-id}/messages`.
 */
import { z } from 'zod';
import type { MessageMedia, MessageType } from '../../../db/schema';
import type { ChannelWithSecrets, DeliveryStatus, MetaChannelAdapter, NormalizedEvent, OutboundText } from './channel-adapter';
import {
  accessToken,
  clip,
  credentialsFailure,
  type GraphApiConfig,
  graphRequest,
  idSchema,
  issueSummary,
  parseTimestamp,
  unexpectedAnswer,
} from './meta';

const envelope = z.object({ object: z.string().optional(), entry: z.array(z.unknown()) });
const entrySchema = z.object({ id: idSchema.optional(), changes: z.array(z.unknown()) });
const changeSchema = z.object({ field: z.string().optional(), value: z.record(z.string(), z.unknown()) });

const contactSchema = z.object({ wa_id: idSchema.optional(), profile: z.object({ name: z.string().optional() }).loose().optional() }).loose();
const valueSchema = z
  .object({
    metadata: z.object({ phone_number_id: idSchema }).loose().optional(),
    contacts: z.array(contactSchema).optional().catch(undefined),
    messages: z.array(z.unknown()).optional(),
    statuses: z.array(z.unknown()).optional(),
  })
  .loose();

const mediaSchema = z
  .object({
    id: idSchema.optional(),
    mime_type: z.string().optional(),
    sha256: z.string().optional(),
    caption: z.string().optional(),
    filename: z.string().optional(),
  })
  .loose();

const errorSchema = z
  .object({
    code: z.coerce.number().optional(),
    title: z.string().optional(),
    message: z.string().optional(),
    error_data: z.object({ details: z.string().optional() }).loose().optional(),
  })
  .loose();

const messageSchema = z
  .object({
    from: idSchema,
    id: idSchema,
    timestamp: z.union([z.string(), z.number()]).optional(),
    type: z.string(),
    text: z.object({ body: z.string() }).loose().optional(),
    image: mediaSchema.optional(),
    audio: mediaSchema.optional(),
    video: mediaSchema.optional(),
    document: mediaSchema.optional(),
    sticker: mediaSchema.optional(),
    location: z
      .object({ latitude: z.coerce.number(), longitude: z.coerce.number(), name: z.string().optional(), address: z.string().optional() })
      .loose()
      .optional(),
    reaction: z.object({ message_id: z.string().optional(), emoji: z.string().optional() }).loose().optional(),
    button: z.object({ text: z.string().optional(), payload: z.string().optional() }).loose().optional(),
    interactive: z
      .object({
        button_reply: z.object({ title: z.string() }).loose().optional(),
        list_reply: z.object({ title: z.string() }).loose().optional(),
      })
      .loose()
      .optional(),
    errors: z.array(errorSchema).optional(),
  })
  .loose();
type WaMessage = z.infer<typeof messageSchema>;

const statusSchema = z
  .object({
    id: idSchema,
    status: z.string(),
    timestamp: z.union([z.string(), z.number()]).optional(),
    errors: z.array(errorSchema).optional(),
  })
  .loose();

const sendAnswer = z.object({ messages: z.array(z.object({ id: z.string().min(1) }).loose()).min(1) }).loose();
const phoneAnswer = z.object({ display_phone_number: z.string().optional(), verified_name: z.string().optional() }).loose();

const DELIVERY_STATUSES: ReadonlySet<string> = new Set<DeliveryStatus>(['sent', 'delivered', 'read', 'failed']);

/** `sha256` stays out of what we keep: it is Meta's checksum of the file, not content. */
function mediaOf(m: z.infer<typeof mediaSchema>): MessageMedia {
  return {
    ...(m.id !== undefined ? { id: m.id } : {}),
    ...(m.mime_type !== undefined ? { mimeType: m.mime_type } : {}),
    ...(m.caption !== undefined ? { caption: clip(m.caption, 4096) } : {}),
    ...(m.filename !== undefined ? { filename: clip(m.filename, 500) } : {}),
    ...(m.sha256 !== undefined ? { sha256: m.sha256 } : {}),
  };
}

/** The stored form of one WhatsApp message, or the reason it is not stored. */
function contentOf(m: WaMessage): { type: MessageType; text: string; media?: MessageMedia } | { ignored: string } {
  switch (m.type) {
    case 'text':
      return m.text ? { type: 'text', text: clip(m.text.body) } : { ignored: 'text message without a body' };
    case 'image':
    case 'audio':
    case 'video':
    case 'document':
    case 'sticker': {
      const media = m[m.type];
      if (!media) return { ignored: `${m.type} message without its ${m.type} object` };
      return { type: m.type, text: clip(media.caption), media: mediaOf(media) };
    }
    case 'location':
      if (!m.location) return { ignored: 'location message without coordinates' };
      return {
        type: 'location',
        text: clip([m.location.name, m.location.address].filter(Boolean).join(', ')),
        media: { latitude: m.location.latitude, longitude: m.location.longitude },
      };
    case 'reaction':
      // An empty emoji is the customer removing their reaction: nothing to show.
      if (!m.reaction?.emoji) return { ignored: 'reaction removed' };
      return { type: 'reaction', text: m.reaction.emoji };
    case 'button':
      return { type: 'text', text: clip(m.button?.text ?? m.button?.payload ?? '') };
    case 'interactive': {
      const title = m.interactive?.button_reply?.title ?? m.interactive?.list_reply?.title;
      return title !== undefined ? { type: 'text', text: clip(title) } : { type: 'unsupported', text: '' };
    }
    case 'system':
    case 'request_welcome':
      return { ignored: `${m.type} message` };
    default:
      // "unsupported" (with errors[]), contacts, order, and types Meta adds later: the customer
      // did write, so the thread shows that something arrived that Parley cannot display.
      return { type: 'unsupported', text: '' };
  }
}

function statusError(errors: z.infer<typeof errorSchema>[] | undefined): { code: string; message: string } {
  const e = errors?.[0];
  const title = e?.title ?? e?.message ?? 'no reason given';
  const details = e?.error_data?.details;
  return {
    code: e?.code !== undefined ? String(e.code) : 'failed',
    message: `Meta could not deliver the message: ${details && details !== title ? `${title} — ${details}` : title}`,
  };
}

export function parseWhatsApp(body: unknown, now: () => Date = () => new Date()): NormalizedEvent[] {
  const parsed = envelope.safeParse(body);
  if (!parsed.success) return [{ kind: 'ignored', channelExternalId: null, reason: `not a WhatsApp delivery (${issueSummary(parsed.error)})` }];
  const events: NormalizedEvent[] = [];
  for (const rawEntry of parsed.data.entry) {
    const entry = entrySchema.safeParse(rawEntry);
    if (!entry.success) {
      events.push({ kind: 'ignored', channelExternalId: null, reason: `entry: ${issueSummary(entry.error)}` });
      continue;
    }
    for (const rawChange of entry.data.changes) {
      const change = changeSchema.safeParse(rawChange);
      if (!change.success) {
        events.push({ kind: 'ignored', channelExternalId: null, reason: `change: ${issueSummary(change.error)}` });
        continue;
      }
      if (change.data.field !== undefined && change.data.field !== 'messages') {
        events.push({ kind: 'ignored', channelExternalId: null, reason: `field "${change.data.field}" is not handled` });
        continue;
      }
      const value = valueSchema.safeParse(change.data.value);
      if (!value.success) {
        events.push({ kind: 'ignored', channelExternalId: null, reason: `value: ${issueSummary(value.error)}` });
        continue;
      }
      const channelExternalId = value.data.metadata?.phone_number_id ?? null;
      if (channelExternalId === null) {
        events.push({ kind: 'ignored', channelExternalId: null, reason: 'change without metadata.phone_number_id' });
        continue;
      }
      const names = new Map<string, string>();
      for (const c of value.data.contacts ?? []) if (c.wa_id && c.profile?.name) names.set(c.wa_id, c.profile.name);

      for (const rawMessage of value.data.messages ?? []) {
        const message = messageSchema.safeParse(rawMessage);
        if (!message.success) {
          events.push({ kind: 'ignored', channelExternalId, reason: `message: ${issueSummary(message.error)}` });
          continue;
        }
        const m = message.data;
        const content = contentOf(m);
        if ('ignored' in content) {
          events.push({ kind: 'ignored', channelExternalId, reason: content.ignored });
          continue;
        }
        events.push({
          kind: 'message',
          channelExternalId,
          contact: { externalId: m.from, name: clip(names.get(m.from), 200) || null },
          message: {
            externalId: m.id,
            timestamp: parseTimestamp(m.timestamp) ?? now(),
            type: content.type,
            text: content.text,
            ...(content.media ? { media: content.media } : {}),
          },
          echo: false,
        });
      }

      for (const rawStatus of value.data.statuses ?? []) {
        const status = statusSchema.safeParse(rawStatus);
        if (!status.success) {
          events.push({ kind: 'ignored', channelExternalId, reason: `status: ${issueSummary(status.error)}` });
          continue;
        }
        const s = status.data;
        if (!DELIVERY_STATUSES.has(s.status)) {
          events.push({ kind: 'ignored', channelExternalId, reason: `status "${s.status}" is not tracked` });
          continue;
        }
        const timestamp = parseTimestamp(s.timestamp);
        events.push({
          kind: 'status',
          channelExternalId,
          externalMessageId: s.id,
          status: s.status as DeliveryStatus,
          ...(timestamp ? { timestamp } : {}),
          ...(s.status === 'failed' ? { error: statusError(s.errors) } : {}),
        });
      }
    }
  }
  return events;
}

/** Phone number ids named in a delivery (envelope only; odd shapes give nothing). */
export function whatsAppChannelIds(body: unknown): string[] {
  const ids = new Set<string>();
  const entries = (body as { entry?: unknown } | null)?.entry;
  if (!Array.isArray(entries)) return [];
  for (const entry of entries) {
    const changes = (entry as { changes?: unknown } | null)?.changes;
    if (!Array.isArray(changes)) continue;
    for (const change of changes) {
      const id = (change as { value?: { metadata?: { phone_number_id?: unknown } } } | null)?.value?.metadata?.phone_number_id;
      if ((typeof id === 'string' && id !== '') || typeof id === 'number') ids.add(String(id));
    }
  }
  return [...ids];
}

export function createWhatsAppAdapter(graph: GraphApiConfig): MetaChannelAdapter {
  return {
    kind: 'whatsapp',
    webhookObject: 'whatsapp_business_account',
    channelIdsOf: whatsAppChannelIds,
    parse: (body) => parseWhatsApp(body),

    async sendText(channel: ChannelWithSecrets, message: OutboundText, signal: AbortSignal) {
      const answer = await graphRequest(graph, {
        method: 'POST',
        path: `${encodeURIComponent(channel.externalId ?? '')}/messages`,
        accessToken: accessToken(channel),
        body: {
          messaging_product: 'whatsapp',
          recipient_type: 'individual',
          to: message.to,
          type: 'text',
          text: { body: message.text, preview_url: false },
        },
        signal,
      });
      const parsed = sendAnswer.safeParse(answer);
      if (!parsed.success) throw unexpectedAnswer('a message id');
      return { externalMessageId: parsed.data.messages[0]!.id };
    },

    // Cloud API: marking the customer's message read can carry a typing indicator (shown up to 25 s or until we reply).
    async sendTyping(channel, input, signal) {
      if (!input.replyToExternalId) return;
      await graphRequest(graph, {
        method: 'POST',
        path: `${encodeURIComponent(channel.externalId ?? '')}/messages`,
        accessToken: accessToken(channel),
        body: { messaging_product: 'whatsapp', status: 'read', message_id: input.replyToExternalId, typing_indicator: { type: 'text' } },
        signal,
      });
    },

    async testCredentials(channel: ChannelWithSecrets, signal: AbortSignal) {
      try {
        const answer = phoneAnswer.safeParse(
          await graphRequest(graph, {
            method: 'GET',
            path: encodeURIComponent(channel.externalId ?? ''),
            query: { fields: 'display_phone_number,verified_name' },
            accessToken: accessToken(channel),
            signal,
          }),
        );
        const name = answer.success ? [answer.data.verified_name, answer.data.display_phone_number].filter(Boolean).join(', ') : '';
        return { ok: true, message: name ? `Connected to the WhatsApp number ${name}.` : 'Connected to the WhatsApp number.' };
      } catch (error) {
        return { ok: false, message: credentialsFailure(error) };
      }
    },
  };
}
