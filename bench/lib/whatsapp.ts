/**
 * Realistic WhatsApp Cloud API deliveries for the bench: the shared Meta fixtures (Chatwoot's
 * test payloads and Meta's documented envelope; test/fixtures/meta-payloads is an unchanged copy
 * of ../shared/fixtures/meta-payloads), the partial ones wrapped into the full envelope Meta
 * sends, each with our channel's phone number id, a distinct message id, a customer from a pool
 * and the current timestamp, signed like Meta signs them.
 */
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const FIXTURES_DIR = path.resolve(import.meta.dirname, '../../test/fixtures/meta-payloads');

type Json = Record<string, unknown>;

function fixture(name: string): Json {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES_DIR, name), 'utf8')) as Json;
}

/** The `value` of the first change of a full envelope. */
function valueOf(envelope: Json): Json {
  const entry = (envelope.entry as Json[])[0]!;
  return (entry.changes as Json[])[0]!.value as Json;
}

interface Template {
  name: string;
  /** How many of every 10 deliveries use it. */
  weight: number;
  value: Json;
}

/**
 * The mix: mostly text (Meta's documented example and Chatwoot's), some images with a caption and
 * reactions — every one a customer message the processing job stores.
 */
function templates(): Template[] {
  const list: Template[] = [
    { name: 'whatsapp-text-envelope-metadocs.json', weight: 5, value: valueOf(fixture('whatsapp-text-envelope-metadocs.json')) },
    { name: 'whatsapp-text.json', weight: 3, value: fixture('whatsapp-text.json') },
    { name: 'whatsapp-image.json', weight: 1, value: valueOf(fixture('whatsapp-image.json')) },
    { name: 'whatsapp-reaction.json', weight: 1, value: valueOf(fixture('whatsapp-reaction.json')) },
  ];
  for (const t of list) {
    const messages = t.value.messages as Json[] | undefined;
    if (!messages?.[0]) throw new Error(`${t.name} has no message`);
  }
  return list;
}

export const TEMPLATE_NAMES = templates().map((t) => `${t.name} (${t.weight}/10)`);

export interface Delivery {
  /** The WhatsApp message id (`wamid.…`), unique per delivery. */
  id: string;
  /** The customer's WhatsApp id (the reply's `to`). */
  waId: string;
  /** The exact bytes sent. */
  body: string;
  headers: Record<string, string>;
}

export interface DeliveryFactoryOptions {
  phoneNumberId: string;
  appSecret: string;
  /** Distinct customers the deliveries come from (round robin). */
  customers: number;
  /** Prefix of the message ids (distinct per run). */
  run: string;
  /**
   * Appends ` #<seq>` to the text (or caption), so a reply quoting it can be matched to its
   * message; reactions (no text to tag) are left out of the mix then.
   */
  tagText?: boolean;
  /** Replaces the text (and an image's caption) of the n-th delivery: what the customer asks. */
  text?: (seq: number) => string;
}

export function signature(body: string, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}`;
}

/** Makes the n-th delivery: a full, signed WhatsApp envelope. */
export function deliveryFactory(options: DeliveryFactoryOptions): (seq: number) => Delivery {
  const list = templates().filter((t) => !(options.tagText || options.text) || t.name !== 'whatsapp-reaction.json');
  const wheel = list.flatMap((t) => Array.from({ length: t.weight }, () => t));
  return (seq) => {
    const template = wheel[seq % wheel.length]!;
    const id = `wamid.bench-${options.run}-${seq}`;
    const waId = String(15_550_000_000 + (seq % options.customers));
    const value = structuredClone(template.value);
    delete value.phone_number;
    const message = (value.messages as Json[])[0]!;
    message.id = id;
    message.from = waId;
    message.timestamp = String(Math.floor(Date.now() / 1000));
    if (options.text) {
      const text = message.text as { body?: string } | undefined;
      if (text?.body !== undefined) text.body = options.text(seq);
      const image = message.image as { caption?: string } | undefined;
      if (image) image.caption = options.text(seq);
    }
    if (options.tagText) {
      const text = message.text as { body?: string } | undefined;
      if (text?.body !== undefined) text.body = `${text.body} #${seq}`;
      const image = message.image as { caption?: string } | undefined;
      if (image) image.caption = `${image.caption ?? ''} #${seq}`;
    }
    const contacts = value.contacts as Json[] | undefined;
    if (contacts?.[0]) contacts[0].wa_id = waId;
    const envelope = {
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '102290129340398',
          changes: [
            {
              value: {
                messaging_product: 'whatsapp',
                ...value,
                metadata: { display_phone_number: '15550783881', phone_number_id: options.phoneNumberId },
              },
              field: 'messages',
            },
          ],
        },
      ],
    };
    const body = JSON.stringify(envelope);
    return { id, waId, body, headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature(body, options.appSecret) } };
  };
}
