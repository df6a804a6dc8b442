/**
 * Clients (the businesses Parley serves) and their channels (server: server/modules/clients,
 * server/modules/channels). Channel secrets are write-only: sealed at rest, never returned — except
 * the webhook verify token, shown once when Parley generates it (on creation or rotation) so the
 * admin can paste it into Meta.
 *
 *   GET   /api/v1/clients                         -> findClientsResponse   (client users: their own)
 *   POST  /api/v1/clients                         createClientInput -> clientView (201, admin)
 *   GET   /api/v1/clients/:id                     -> clientView
 *   PATCH /api/v1/clients/:id                     updateClientInput -> clientView (admin; status inactive deactivates)
 *   PUT   /api/v1/clients/:id/automation          setClientAutomationInput -> clientView (admin, manager, the client's users)
 *   GET   /api/v1/channels?clientId=              -> findChannelsResponse  (admin, manager)
 *   POST  /api/v1/channels                        createChannelInput -> createdChannel (201, admin)
 *   PATCH /api/v1/channels/:id                    updateChannelInput -> channelView (admin)
 *   POST  /api/v1/channels/:id/rotate-verify-token -> createdChannel (admin; Meta channels)
 *   POST  /api/v1/channels/:id/test               -> channelTestResult (admin): checks the credentials
 *   GET   /api/v1/channels/:id/deliveries         -> deliveriesResponse (admin; API channels' callback log)
 *
 * Custom-platform channel (API), for the business's own systems:
 *   POST  /api/v1/channels/:channelId/messages    apiInboundMessage, signed (see API_SIGNATURE)
 *   Parley POSTs each reply to the channel's callback URL, signed the same way: apiOutboundMessage.
 */
import { z } from 'zod';
import { RATING_MAX, RATING_MIN, SURVEY_COMMENT_MAX } from '../messaging/satisfaction';

const isoDate = z.iso.datetime({ offset: true });

export const clientStatus = z.enum(['active', 'inactive']);

export const clientView = z.object({
  id: z.uuid(),
  companyName: z.string(),
  contactPerson: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  status: clientStatus,
  channelCount: z.number().int(),
  conversationCount: z.number().int(),
  userCount: z.number().int(),
  lastInteractionAt: isoDate.nullable(),
  /**
   * The client's automation is paused since then (docs/client-dashboard.md): its AI agent does not
   * answer and its event-triggered automations do not start. Null while it runs.
   */
  automationPausedAt: isoDate.nullable(),
  /** The name of who paused it; null when it runs, or when that account is gone. */
  automationPausedBy: z.string().nullable(),
  createdAt: isoDate,
});
export type ClientView = z.infer<typeof clientView>;

/** Pause or resume a client's automation (`PUT /api/v1/clients/:id/automation`). */
export const setClientAutomationInput = z.object({ paused: z.boolean({ error: 'Say whether the automation is paused' }) });
export type SetClientAutomationInput = z.infer<typeof setClientAutomationInput>;
export const findClientsResponse = z.object({ clients: z.array(clientView) });

const optionalText = (max: number, message: string) =>
  z
    .string()
    .trim()
    .max(max, { error: message })
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional();

export const createClientInput = z.object({
  companyName: z.string().trim().min(1, { error: 'Company name is required' }).max(200, { error: 'Company name is too long' }),
  contactPerson: optionalText(200, 'Contact person is too long'),
  email: z
    .string()
    .trim()
    .toLowerCase()
    .max(254, { error: 'Email is too long' })
    .refine((v) => v === '' || z.email().safeParse(v).success, { error: 'Please enter a valid email address' })
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional(),
  phone: optionalText(50, 'Phone is too long'),
  status: clientStatus.default('active'),
});
export type CreateClientInput = z.input<typeof createClientInput>;
/** Only the fields given change (the status default of creation does not apply here). */
export const updateClientInput = createClientInput
  .partial()
  .extend({ status: clientStatus.optional() })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { error: 'Nothing to change' });

export const channelKind = z.enum(['whatsapp', 'messenger', 'instagram', 'webchat', 'api']);
export type ChannelKind = z.infer<typeof channelKind>;

export const channelView = z.object({
  id: z.uuid(),
  clientId: z.uuid(),
  clientName: z.string(),
  kind: channelKind,
  name: z.string(),
  status: z.enum(['active', 'disabled']),
  /** Phone number id, page id, Instagram account id or widget id; null for API channels. */
  externalId: z.string().nullable(),
  callbackUrl: z.string().nullable(),
  /** Where the platform must send events: Meta's callback URL, or the API channel's inbound URL. */
  webhookUrl: z.string().nullable(),
  /** The `<script>` tag to embed (website chat). */
  embedSnippet: z.string().nullable(),
  /** Which secrets are stored (never their values). */
  secrets: z.object({
    accessToken: z.boolean(),
    appSecret: z.boolean(),
    verifyToken: z.boolean(),
    signingSecret: z.boolean(),
  }),
  createdAt: isoDate,
});
export type ChannelView = z.infer<typeof channelView>;
export const findChannelsQuery = z.object({ clientId: z.uuid().optional() });
export const findChannelsResponse = z.object({ channels: z.array(channelView) });

const secret = (label: string) =>
  z
    .string()
    .trim()
    .min(8, { error: `${label} looks too short` })
    .max(1000, { error: `${label} is too long` });
const metaId = (label: string) =>
  z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_.:-]{1,100}$/u, { error: `Please enter the ${label}` });
const name = z.string().trim().min(1, { error: 'Name is required' }).max(100, { error: 'Name is too long' });
const verifyToken = secret('Verify token').optional().describe('Generated when omitted, and shown once');

export const createChannelInput = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('whatsapp'),
    clientId: z.uuid(),
    name: name.default('WhatsApp'),
    phoneNumberId: metaId('phone number id'),
    accessToken: secret('Access token'),
    appSecret: secret('App secret'),
    verifyToken,
  }),
  z.object({
    kind: z.literal('messenger'),
    clientId: z.uuid(),
    name: name.default('Messenger'),
    pageId: metaId('page id'),
    accessToken: secret('Access token'),
    appSecret: secret('App secret'),
    verifyToken,
  }),
  z.object({
    kind: z.literal('instagram'),
    clientId: z.uuid(),
    name: name.default('Instagram'),
    accountId: metaId('Instagram account id'),
    accessToken: secret('Access token'),
    appSecret: secret('App secret'),
    verifyToken,
  }),
  z.object({ kind: z.literal('webchat'), clientId: z.uuid(), name: name.default('Website chat') }),
  z.object({
    kind: z.literal('api'),
    clientId: z.uuid(),
    name: name.default('Custom platform'),
    callbackUrl: z.url({ protocol: /^https?$/u, error: 'Please enter an http(s) callback URL' }).max(2048),
    signingSecret: secret('Signing secret').optional().describe('Generated when omitted, and shown once'),
  }),
]);
export type CreateChannelInput = z.input<typeof createChannelInput>;

/** A channel as created: with the generated secrets shown this once. */
export const createdChannel = channelView.extend({
  verifyToken: z.string().optional(),
  signingSecret: z.string().optional(),
});

export const updateChannelInput = z
  .object({
    name: name.optional(),
    status: z.enum(['active', 'disabled']).optional(),
    accessToken: secret('Access token').optional(),
    appSecret: secret('App secret').optional(),
    callbackUrl: z.url({ protocol: /^https?$/u, error: 'Please enter an http(s) callback URL' }).max(2048).optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { error: 'Nothing to change' });

export const channelTestResult = z.object({ ok: z.boolean(), message: z.string() });

export const channelDelivery = z.object({
  id: z.number().int(),
  messageId: z.uuid().nullable(),
  attempt: z.number().int(),
  url: z.string(),
  statusCode: z.number().int().nullable(),
  responseBody: z.string().nullable(),
  error: z.string().nullable(),
  durationMs: z.number().int(),
  createdAt: isoDate,
});
export const deliveriesResponse = z.object({ deliveries: z.array(channelDelivery) });

/**
 * Signature of custom-platform requests, both directions:
 *   X-Parley-Timestamp: <unix seconds>
 *   X-Parley-Signature: sha256=<hex HMAC-SHA256 of `${timestamp}.${raw body}` with the signing secret>
 * Requests more than 5 minutes from Parley's clock are refused (replay protection).
 */
export const API_SIGNATURE = {
  timestampHeader: 'x-parley-timestamp',
  signatureHeader: 'x-parley-signature',
  toleranceSeconds: 300,
} as const;

export const apiInboundMessage = z.object({
  contact: z.object({
    id: z.string().trim().min(1).max(200),
    name: z.string().trim().max(200).optional(),
  }),
  message: z.object({
    /** Your id for the message: sending the same id again is ignored (idempotent). */
    id: z.string().trim().min(1).max(200),
    text: z.string().trim().min(1).max(4096),
    /**
     * The customer's answer to a satisfaction survey (a message Parley sent with `survey`): 1–5.
     * It answers the conversation's pending survey and does not reopen it; without a pending
     * survey the message is an ordinary one. Absent: a text like "4 - great" is read as a rating
     * while a survey waits, as on WhatsApp.
     */
    rating: z
      .number({ error: 'Rating must be a whole number from 1 to 5' })
      .int({ error: 'Rating must be a whole number from 1 to 5' })
      .min(RATING_MIN, { error: 'Rating must be a whole number from 1 to 5' })
      .max(RATING_MAX, { error: 'Rating must be a whole number from 1 to 5' })
      .optional(),
    /** A comment with the rating. */
    comment: z.string().trim().max(SURVEY_COMMENT_MAX, { error: `Comment must be at most ${SURVEY_COMMENT_MAX} characters` }).optional(),
  }),
});
export type ApiInboundMessage = z.infer<typeof apiInboundMessage>;
export const apiInboundAccepted = z.object({
  messageId: z.uuid(),
  conversationId: z.uuid(),
  /** false when this message id was already received. */
  created: z.boolean(),
  /** The satisfaction survey this message answered (its rating was recorded); absent: none. */
  surveyId: z.uuid().optional(),
});

export const apiOutboundMessage = z.object({
  event: z.literal('message.created'),
  channelId: z.uuid(),
  conversationId: z.uuid(),
  contact: z.object({ id: z.string() }),
  message: z.object({
    id: z.uuid(),
    text: z.string(),
    senderType: z.enum(['ai', 'agent', 'system']),
    /** A satisfaction survey's request: show a 1–5 choice and send the answer back as `message.rating`. */
    survey: z.object({ id: z.uuid(), minRating: z.number().int(), maxRating: z.number().int() }).optional(),
    createdAt: isoDate,
  }),
});
export type ApiOutboundMessage = z.infer<typeof apiOutboundMessage>;
