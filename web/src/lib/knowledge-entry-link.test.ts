import { describe, expect, it } from 'vitest';
import { MAX_NEW_ENTRY_HREF, newKnowledgeEntryHref, newKnowledgeEntryOf, withoutNewKnowledgeEntry } from './knowledge-entry-link';

const CLIENT = '4f1c2a8e-3b7d-4c6e-9a1f-2d3e4f5a6b7c';
const searchOf = (href: string) => new URLSearchParams(href.slice(href.indexOf('?') + 1));

describe('the link to a new FAQ entry', () => {
  it('opens the client’s knowledge base in Admin Settings with the questions, in order', () => {
    const href = newKnowledgeEntryHref(CLIENT, ['Where can I park?', 'Is there parking & a car park?']);
    expect(href.startsWith('/settings?')).toBe(true);
    const search = searchOf(href);
    expect(Object.fromEntries(['tab', 'client', 'section', 'newEntry'].map((k) => [k, search.get(k)]))).toEqual({ tab: 'agents', client: CLIENT, section: 'knowledge', newEntry: '1' });
    expect(newKnowledgeEntryOf(search)).toEqual(['Where can I park?', 'Is there parking & a car park?']);
  });

  it('drops empty and repeated questions, and stays short enough for a request line', () => {
    expect(newKnowledgeEntryOf(searchOf(newKnowledgeEntryHref(CLIENT, ['  Gift cards? ', '', 'gift cards?', 'Vouchers?'])))).toEqual(['Gift cards?', 'Vouchers?']);
    const long = Array.from({ length: 10 }, (_, i) => `${i} ${'a very long way of asking about parking '.repeat(12)}`);
    const href = newKnowledgeEntryHref(CLIENT, long);
    expect(href.length).toBeLessThanOrEqual(MAX_NEW_ENTRY_HREF);
    const questions = newKnowledgeEntryOf(searchOf(href))!;
    expect(questions.length).toBeGreaterThanOrEqual(1);
    expect(questions[0]).toBe(long[0]!.trim());
    // The first question always goes, cut to an FAQ question's 500 characters.
    expect(newKnowledgeEntryOf(searchOf(newKnowledgeEntryHref(CLIENT, ['x'.repeat(900)])))).toEqual(['x'.repeat(500)]);
  });

  it('is read only when it asks for a new entry, and removed without touching the rest', () => {
    expect(newKnowledgeEntryOf(new URLSearchParams('tab=agents&client=x&question=a'))).toBeNull();
    expect(newKnowledgeEntryOf(new URLSearchParams('newEntry=1'))).toEqual([]);
    expect(withoutNewKnowledgeEntry(new URLSearchParams('tab=agents&client=x&section=knowledge&newEntry=1&question=a&question=b')).toString()).toBe(
      'tab=agents&client=x&section=knowledge',
    );
  });
});
