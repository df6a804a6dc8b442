import { describe, expect, it } from 'vitest';
import { isSendKey } from '@/lib/keyboard';
import { attachmentLabel, messageSide, senderLabel, threadMessages } from './thread';

describe('the thread (spec part 1 §2.15)', () => {
  it('puts client messages on the right, AI and agent messages on the left, system notes in the middle', () => {
    expect(messageSide({ senderType: 'customer' })).toBe('right');
    expect(messageSide({ senderType: 'ai' })).toBe('left');
    expect(messageSide({ senderType: 'agent' })).toBe('left');
    expect(messageSide({ senderType: 'system' })).toBe('center');
  });

  it('names who wrote each message', () => {
    expect(senderLabel({ senderType: 'customer', senderName: null, contactName: 'Dana' })).toBe('Dana');
    expect(senderLabel({ senderType: 'ai', senderName: null, contactName: 'Dana' })).toBe('AI Agent');
    expect(senderLabel({ senderType: 'agent', senderName: 'Ana', contactName: 'Dana' })).toBe('Ana');
  });

  it('labels non-text messages', () => {
    expect(attachmentLabel({ messageType: 'text', media: null })).toBeNull();
    expect(attachmentLabel({ messageType: 'image', media: null })).toBe('Image');
    expect(attachmentLabel({ messageType: 'document', media: { filename: 'invoice.pdf' } })).toBe('Document: invoice.pdf');
  });

  it('reads pages newest-first into one oldest-first list', () => {
    const m = (id: string) => ({ id }) as never;
    const data = { pages: [{ messages: [m('c'), m('d')], hasMore: true }, { messages: [m('a'), m('b')], hasMore: false }] };
    expect(threadMessages(data).map((x: { id: string }) => x.id)).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe('isSendKey', () => {
  it('sends on Enter, not on Shift+Enter nor while composing', () => {
    expect(isSendKey({ key: 'Enter', shiftKey: false })).toBe(true);
    expect(isSendKey({ key: 'Enter', shiftKey: true })).toBe(false);
    expect(isSendKey({ key: 'Enter', shiftKey: false, nativeEvent: { isComposing: true } })).toBe(false);
    expect(isSendKey({ key: 'a', shiftKey: false })).toBe(false);
  });
});
