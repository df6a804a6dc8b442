/**
 * The Meta adapters' pure parts: payload parsing (tolerant — never a throw), channel ids from the
 * envelope, timestamps in every form Meta and the fixtures use, and the classification of Graph
 * API errors into retryable and permanent.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fixture, messagingDelivery, whatsappDelivery } from '../../../../test/helpers/meta-webhooks';
import { parseInstagram } from './instagram.adapter';
import { messagingChannelIds, parseMessenger } from './messenger.adapter';
import { classifyGraphError, ourMessageIdFrom, parseRetryAfter, parseTimestamp } from './meta';
import { parseWhatsApp, whatsAppChannelIds } from './whatsapp.adapter';

const NOW = new Date('2026-03-01T10:00:00Z');
const now = () => NOW;

describe('timestamps', () => {
  it('reads seconds, milliseconds, numeric strings and ISO strings (with +0000 offsets)', () => {
    expect(parseTimestamp('1749416383')?.toISOString()).toBe('2025-06-08T20:59:43.000Z');
    expect(parseTimestamp(1749416383)?.toISOString()).toBe('2025-06-08T20:59:43.000Z');
    expect(parseTimestamp(1457764197627)?.toISOString()).toBe('2016-03-12T06:29:57.627Z');
    expect(parseTimestamp('1648581633369')?.toISOString()).toBe('2022-03-29T19:20:33.369Z');
    expect(parseTimestamp('2021-09-08T06:34:04+0000')?.toISOString()).toBe('2021-09-08T06:34:04.000Z');
    expect(parseTimestamp('2021-09-08T08:34:04+02:00')?.toISOString()).toBe('2021-09-08T06:34:04.000Z');
    for (const odd of ['nope', '', null, undefined, {}, Number.NaN, Infinity]) expect(parseTimestamp(odd)).toBeUndefined();
  });
});

describe('WhatsApp parsing', () => {
  it('normalises the fixtures: a text with its contact name, an image, a reaction, unsupported, statuses', () => {
    const events = parseWhatsApp(
      whatsappDelivery(
        'pn-1',
        fixture('whatsapp-text.json'),
        fixture('whatsapp-unsupported.json'),
        fixture('whatsapp-status-read.json'),
        fixture('whatsapp-status-failed.json'),
      ),
      now,
    );
    expect(events).toEqual([
      {
        kind: 'message',
        channelExternalId: 'pn-1',
        contact: { externalId: '2423423243', name: 'Sojan Jose' },
        message: { externalId: 'SDFADSf23sfasdafasdfa', timestamp: new Date(1633034394000), type: 'text', text: 'Test' },
        echo: false,
      },
      {
        kind: 'message',
        channelExternalId: 'pn-1',
        contact: { externalId: '2423423243', name: 'Sojan Jose' },
        message: { externalId: 'wamid.SDFADSf23sfasdafasdfa', timestamp: new Date(1667047370000), type: 'unsupported', text: '' },
        echo: false,
      },
      { kind: 'status', channelExternalId: 'pn-1', externalMessageId: '2423423243', status: 'read' },
      {
        kind: 'status',
        channelExternalId: 'pn-1',
        externalMessageId: '2423423243',
        status: 'failed',
        error: { code: '123', message: 'Meta could not deliver the message: abc' },
      },
    ]);
  });

  it('reads media, locations, button and list replies; ignores removed reactions and system messages', () => {
    const message = (id: string, rest: Record<string, unknown>) => ({ from: '111', id, timestamp: '1700000000', ...rest });
    const events = parseWhatsApp(
      whatsappDelivery('pn-1', {
        messages: [
          message('a', { type: 'document', document: { id: 'media-1', mime_type: 'application/pdf', filename: 'invoice.pdf', caption: 'Invoice' } }),
          message('b', { type: 'location', location: { latitude: 38.7223, longitude: -9.1393, name: 'Lisboa', address: 'Praça do Comércio' } }),
          message('c', { type: 'interactive', interactive: { type: 'list_reply', list_reply: { id: 'x', title: 'Order status' } } }),
          message('d', { type: 'button', button: { text: 'Yes, please', payload: 'YES' } }),
          message('e', { type: 'reaction', reaction: { message_id: 'wamid.x', emoji: '' } }),
          message('f', { type: 'system', system: { body: 'changed number' } }),
          message('g', { type: 'audio', audio: { id: 'media-2', mime_type: 'audio/ogg; codecs=opus' } }),
        ],
      }),
      now,
    );
    expect(events.map((e) => (e.kind === 'message' ? [e.message.externalId, e.message.type, e.message.text, e.message.media] : [e.kind]))).toEqual([
      ['a', 'document', 'Invoice', { id: 'media-1', mimeType: 'application/pdf', filename: 'invoice.pdf', caption: 'Invoice' }],
      ['b', 'location', 'Lisboa, Praça do Comércio', { latitude: 38.7223, longitude: -9.1393 }],
      ['c', 'text', 'Order status', undefined],
      ['d', 'text', 'Yes, please', undefined],
      ['ignored'],
      ['ignored'],
      ['g', 'audio', '', { id: 'media-2', mimeType: 'audio/ogg; codecs=opus' }],
    ]);
  });

  it('names every phone number id of a delivery, and none for odd shapes', () => {
    const body = { entry: [{ changes: [{ value: { metadata: { phone_number_id: 'a' } } }, { value: { metadata: { phone_number_id: 7 } } }] }, { changes: [{ value: {} }] }] };
    expect(whatsAppChannelIds(body)).toEqual(['a', '7']);
    for (const odd of [null, 1, 'x', [], { entry: 'x' }, { entry: [null, { changes: [null] }] }]) expect(whatsAppChannelIds(odd)).toEqual([]);
  });
});

describe('Messenger and Instagram parsing', () => {
  it('reads watermarks (Messenger) and reads by message id (Instagram)', () => {
    const delivery = parseMessenger(messagingDelivery('messenger', '117172741761305', fixture<{ messaging: unknown }>('messenger-delivery.json').messaging), now);
    expect(delivery).toEqual([
      { kind: 'watermark', channelExternalId: '117172741761305', contactExternalId: '3383290475046708', status: 'delivered', watermark: new Date(1648581633369) },
    ]);
    const read = parseMessenger(messagingDelivery('messenger', '117172741761305', fixture<{ messaging: unknown }>('messenger-read.json').messaging), now);
    expect(read[0]).toMatchObject({ kind: 'watermark', status: 'read' });
    expect(parseInstagram(fixture('instagram-seen.json'), now)).toEqual([
      { kind: 'status', channelExternalId: 'chatwoot-app-user-id-1', externalMessageId: 'message-id-1', status: 'read', timestamp: new Date('2021-09-08T06:34:04Z') },
    ]);
  });

  it('flips sender and recipient for echoes and carries our id back from the metadata', () => {
    const id = '0b7e7c1e-8f7e-4c55-9d0a-3f0b6f1f4a11';
    const [echo] = parseMessenger(
      messagingDelivery('messenger', 'PAGE', { sender: { id: 'PAGE' }, recipient: { id: 'PSID' }, timestamp: 1457764197627, message: { is_echo: true, app_id: 1, metadata: `parley:${id}`, mid: 'm.1', text: 'hello, world!' } }),
      now,
    );
    expect(echo).toEqual({
      kind: 'message',
      channelExternalId: 'PAGE',
      contact: { externalId: 'PSID', name: null },
      message: { externalId: 'm.1', type: 'text', text: 'hello, world!', timestamp: new Date(1457764197627) },
      echo: true,
      ourMessageId: id,
    });
    expect(ourMessageIdFrom(`parley:${id}`)).toBe(id);
    for (const other of ['parley:not-a-uuid', id, 'DEVELOPER_DEFINED', undefined, 3]) expect(ourMessageIdFrom(other)).toBeNull();
  });

  it('stores each attachment as its own message, and reactions with an id of their own', () => {
    const events = parseMessenger(
      messagingDelivery(
        'messenger',
        'PAGE',
        {
          sender: { id: 'PSID' },
          recipient: { id: 'PAGE' },
          timestamp: 1700000000000,
          message: {
            mid: 'm.2',
            text: 'two photos',
            attachments: [
              { type: 'image', payload: { url: 'https://cdn.example/1.jpg' } },
              { type: 'file', payload: { url: 'https://cdn.example/2.pdf' } },
              { type: 'location', payload: { coordinates: { lat: 1.5, long: 2.5 } } },
            ],
          },
        },
        { sender: { id: 'PSID' }, recipient: { id: 'PAGE' }, timestamp: 1700000001000, message: { mid: 'm.3', sticker_id: 369239263222822, attachments: [{ type: 'image', payload: { url: 'https://cdn.example/like.png' } }] } },
        { sender: { id: 'PSID' }, recipient: { id: 'PAGE' }, timestamp: 1700000002000, reaction: { mid: 'm.out', action: 'react', emoji: '❤️', reaction: 'love' } },
        { sender: { id: 'PSID' }, recipient: { id: 'PAGE' }, timestamp: 1700000003000, reaction: { mid: 'm.out', action: 'unreact' } },
        { sender: { id: 'PSID' }, recipient: { id: 'PAGE' }, timestamp: 1700000004000, postback: { title: 'Start', payload: 'START' } },
        { sender: { id: 'PSID' }, recipient: { id: 'PAGE' }, message: { mid: 'm.4', is_deleted: true } },
      ),
      now,
    );
    expect(events.map((e) => (e.kind === 'message' ? [e.message.externalId, e.message.type, e.message.text] : [e.kind, e.kind === 'ignored' ? e.reason : '']))).toEqual([
      ['m.2', 'image', 'two photos'],
      ['m.2#2', 'document', ''],
      ['m.2#3', 'location', ''],
      ['m.3', 'sticker', ''],
      ['m.out#reaction:PSID:1700000002000', 'reaction', '❤️'],
      ['ignored', 'reaction removed'],
      ['ignored', 'Messenger "postback" events are not handled'],
      ['ignored', 'message unsent by the customer'],
    ]);
  });

  it('ignores the Instagram dashboard test event, and standby items', () => {
    expect(parseInstagram(fixture('instagram-test-event-changes.json'), now)).toEqual([
      { kind: 'ignored', channelExternalId: '0', reason: 'Instagram dashboard test event (sample data, not recorded)' },
    ]);
    const standby = parseMessenger({ object: 'page', entry: [{ id: 'PAGE', standby: [{ sender: { id: 'PSID' } }] }] }, now);
    expect(standby).toMatchObject([{ kind: 'ignored', channelExternalId: 'PAGE' }]);
  });

  it("names each entry's account and each item's business side", () => {
    expect(messagingChannelIds(fixture('instagram-text.json')).sort()).toEqual(['chatwoot-app-user-id-1', 'instagram-message-id-123']);
    expect(messagingChannelIds(fixture('instagram-echo-story-mention.json')).sort()).toEqual(['Sender-id-1', 'instagram-message-id-1234']);
    for (const odd of [null, 'x', { entry: [null, 1, { messaging: [null, 2] }] }]) expect(() => messagingChannelIds(odd)).not.toThrow();
  });
});

describe('parsing never throws', () => {
  const parsers = [
    ['WhatsApp', (b: unknown) => parseWhatsApp(b, now), whatsAppChannelIds],
    ['Messenger', (b: unknown) => parseMessenger(b, now), messagingChannelIds],
    ['Instagram', (b: unknown) => parseInstagram(b, now), messagingChannelIds],
  ] as const;
  // Envelopes of the right shape with arbitrary insides reach deeper than arbitrary JSON.
  const item = fc.oneof(fc.jsonValue({ maxDepth: 4 }), fc.record({ sender: fc.jsonValue(), recipient: fc.jsonValue(), message: fc.jsonValue(), read: fc.jsonValue() }, { requiredKeys: [] }));
  const envelopes = fc.oneof(
    fc.jsonValue({ maxDepth: 5 }),
    fc.record({ object: fc.string(), entry: fc.array(fc.record({ id: fc.jsonValue(), changes: fc.array(fc.record({ field: fc.jsonValue(), value: fc.dictionary(fc.constantFrom('metadata', 'messages', 'statuses', 'contacts'), fc.jsonValue({ maxDepth: 3 })) })), messaging: fc.array(item) }, { requiredKeys: [] })) }),
  );

  for (const [name, parse, ids] of parsers) {
    it(`${name}: any JSON gives events (or ignored items), never an exception`, () => {
      fc.assert(
        fc.property(envelopes, (body) => {
          const events = parse(body);
          expect(Array.isArray(events)).toBe(true);
          expect(Array.isArray(ids(body))).toBe(true);
        }),
        { numRuns: 300 },
      );
    });
  }
});

describe('Graph API errors', () => {
  const error = (code: number, extra: Record<string, unknown> = {}) => ({ error: { message: `(#${code}) Something`, type: 'OAuthException', code, fbtrace_id: 'x', ...extra } });

  it.each([
    [429, null, '3', true, 3000],
    [500, null, null, true, undefined],
    [503, error(2), null, true, undefined],
    [400, error(130429), null, true, undefined],
    [400, error(131056), null, true, undefined],
    [400, error(4), null, true, undefined],
    [400, error(80007), null, true, undefined],
    [500, error(1), null, true, undefined],
    [400, error(131047), null, false, undefined],
    [400, error(131026), null, false, undefined],
    [400, error(100), null, false, undefined],
    [401, error(190), null, false, undefined],
    [400, error(368), null, false, undefined],
    [500, error(131047), null, false, undefined],
    [403, null, null, false, undefined],
    [404, { error: { message: 'Unknown path components' } }, null, false, undefined],
  ])('HTTP %i with %j → retryable %s', (status, body, retryAfter, retryable, retryAfterMs) => {
    const e = classifyGraphError(status, body, retryAfter);
    expect(e.retryable).toBe(retryable);
    expect(e.options.retryAfterMs).toBe(retryAfterMs);
    if (!retryable) expect(e.message).toMatch(/^Meta refused the message: /u);
  });

  it('explains the 24-hour window refusal in words, with the code', () => {
    const e = classifyGraphError(
      400,
      error(131047, { error_data: { messaging_product: 'whatsapp', details: 'Message failed to send because more than 24 hours have passed since the customer last replied to this number.' } }),
      null,
    );
    expect(e).toMatchObject({ code: '131047', retryable: false });
    expect(e.message).toBe('Meta refused the message: more than 24 hours have passed since the customer last wrote, so only a template message can be sent (131047)');
    expect(classifyGraphError(400, error(132000, { error_data: { details: 'Number of parameters does not match' } }), null).message).toBe(
      'Meta refused the message: Number of parameters does not match (132000)',
    );
  });

  it('reads Retry-After as seconds or a date, capped at ten minutes', () => {
    expect(parseRetryAfter('0')).toBe(0);
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter('100000')).toBe(600_000);
    expect(parseRetryAfter(new Date(Date.now() + 5000).toUTCString())).toBeGreaterThan(3000);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
  });
});
