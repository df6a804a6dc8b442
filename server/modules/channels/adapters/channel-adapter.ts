/**
 * Channels are adapters behind one interface (STYLE.md): each platform parses its own webhook
 * payloads (zod at the edge) into normalised events and sends through its own API. Everything
 * after parsing — contacts, conversations, idempotency, statuses, events — is the messaging core's.
 */
import type { Channel, ChannelKind, MessageMedia, MessageType } from '../../../db/schema';
import type { ContactProfile, DeliveryStatus } from '../../messaging';

export type { ContactProfile, DeliveryStatus };

export interface ChannelSecrets {
  accessToken?: string;
  appSecret?: string;
  verifyToken?: string;
  signingSecret?: string;
}

export type ChannelWithSecrets = Channel & { secretValues: ChannelSecrets };


export type NormalizedEvent =
  | {
      kind: 'message';
      /** The phone number id / page id / Instagram account id the event belongs to. */
      channelExternalId: string;
      contact: { externalId: string; name?: string | null };
      message: { externalId: string; timestamp: Date; type: MessageType; text: string; media?: MessageMedia };
      /**
       * An echo of a message the business sent (through Parley, or typed by a person in the
       * platform's own app): recorded as outbound, matched to our own send when it is one.
       */
      echo: boolean;
      /** Echoes only: our message id, when the platform carried back what we sent as metadata. */
      ourMessageId?: string | null;
    }
  | {
      kind: 'status';
      channelExternalId: string;
      externalMessageId: string;
      status: DeliveryStatus;
      timestamp?: Date;
      error?: { code: string; message: string };
    }
  | {
      /** Messenger: everything sent to this contact up to the watermark is delivered/read. */
      kind: 'watermark';
      channelExternalId: string;
      contactExternalId: string;
      status: 'delivered' | 'read';
      watermark: Date;
    }
  | { kind: 'ignored'; channelExternalId: string | null; reason: string };

export interface OutboundText {
  /** Our message id (for idempotency keys and logs). */
  messageId: string;
  conversationId: string;
  /** The contact's id on the platform (wa_id, PSID, IGSID, visitor id, your contact id). */
  to: string;
  text: string;
  senderType: 'ai' | 'agent' | 'system';
  /** A satisfaction survey's request (docs/satisfaction.md): the API channel's payload carries it. */
  surveyId?: string | null;
  createdAt: Date;
}

export interface TypingInput {
  /** The contact's id on the platform. */
  to: string;
  /** The customer's message being answered (WhatsApp needs it). */
  replyToExternalId: string | null;
}


/** A failed send; `retryable` decides between backoff and failing the message at once. */
export class SendError extends Error {
  constructor(
    message: string,
    readonly options: { retryable: boolean; code: string; retryAfterMs?: number; cause?: unknown },
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SendError';
  }
  get retryable(): boolean {
    return this.options.retryable;
  }
  get code(): string {
    return this.options.code;
  }
}

export interface ChannelAdapter {
  readonly kind: ChannelKind;
  /** Sends a text; resolves with the platform's message id (null when it gives none). */
  sendText(channel: ChannelWithSecrets, message: OutboundText, signal: AbortSignal): Promise<{ externalMessageId: string | null }>;
  /**
   * Shows "typing…" to the contact, where the platform has it (WhatsApp: marks the customer's
   * message read with a typing indicator; Messenger and Instagram: `sender_action: typing_on`).
   */
  sendTyping?(channel: ChannelWithSecrets, input: TypingInput, signal: AbortSignal): Promise<void>;
  /**
   * The contact's name and picture from the platform's user profile endpoint (Messenger,
   * Instagram: their webhooks carry only an id). Throws SendError like a send does.
   */
  fetchProfile?(channel: ChannelWithSecrets, contactExternalId: string, signal: AbortSignal): Promise<ContactProfile>;
  /** Checks the stored credentials against the platform. */
  testCredentials(channel: ChannelWithSecrets, signal: AbortSignal): Promise<{ ok: boolean; message: string }>;
}

/** WhatsApp Cloud API, Messenger and Instagram: signed webhooks in Meta's envelope. */
export interface MetaChannelAdapter extends ChannelAdapter {
  readonly kind: 'whatsapp' | 'messenger' | 'instagram';
  /** The `object` value of this platform's webhook envelope. */
  readonly webhookObject: string;
  /** The channel external ids a verified delivery concerns (cheap: envelope only). */
  channelIdsOf(body: unknown): string[];
  /** Every entry and every message/status of a delivery, normalised. Never throws on odd items. */
  parse(body: unknown): NormalizedEvent[];
}
