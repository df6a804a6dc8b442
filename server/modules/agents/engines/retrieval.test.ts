import { describe, expect, it } from 'vitest';
import type { ConversationTurn, KnowledgeBase } from './answer-engine';
import { allPassages, conversationQuery, PASSAGE_CHARS, splitArticle, tokenize, topPassages } from './retrieval';

const RETURNS_BODY = [
  'You can return any item within 30 days of delivery. Items must be unused and in their original packaging.',
  'Refunds are paid to the original payment method within 5 business days after we receive the parcel.',
  '',
  'Sale items cannot be returned. Gift cards are not refundable.',
].join('\n');

function kb(overrides: Partial<KnowledgeBase> = {}): KnowledgeBase {
  return {
    version: 1,
    model: null,
    entries: [
      { id: 'e-hours', questions: ['What are your opening hours?', 'When are you open?'], answer: 'We are open Monday to Friday, 9:00 to 17:00.', link: null },
      { id: 'e-shipping', questions: ['How long does shipping take?', 'When will my order arrive?'], answer: 'Orders ship within 2 days; delivery takes 3 to 5 days.', link: 'https://shop.example/shipping' },
      { id: 'e-cafe', questions: ['Do you have a café?'], answer: 'Yes, our café on the first floor serves coffee and cake.', link: null },
    ],
    articles: [
      { id: 'a-returns', title: 'Returns policy', body: RETURNS_BODY },
      { id: 'a-about', title: 'About us', body: 'We are a family business founded in 1998 in Porto. We sell handmade shoes.' },
    ],
    ...overrides,
  };
}

const turn = (role: ConversationTurn['role'], text: string): ConversationTurn => ({ role, text, at: new Date('2026-01-01T00:00:00Z') });

describe('tokenize', () => {
  it('lower-cases, drops diacritics, stop words and punctuation, and stems plurals', () => {
    expect(tokenize('Do you have a CAFÉ? Refunds, please!')).toEqual(['have', 'cafe', 'refund']);
  });

  it('joins apostrophes and keeps numbers', () => {
    expect(tokenize("Don't ship 2 boxes")).toEqual(['dont', 'ship', '2', 'boxe']);
  });

  it('splits CJK text without spaces into character pairs', () => {
    expect(tokenize('営業時間')).toEqual(['営業', '業時', '時間']);
  });
});

describe('splitArticle', () => {
  it('keeps short paragraphs together and starts a new passage at a paragraph once the passage is half full', () => {
    expect(splitArticle('One. Two.\n\nThree.')).toEqual(['One. Two. Three.']);
    const long = 'A sentence that is long enough to matter here. '.repeat(6).trim();
    expect(splitArticle(`${long}\n\nNext paragraph.`)).toEqual([long, 'Next paragraph.']);
  });

  it('never builds a passage much longer than the target, even from one endless sentence', () => {
    const body = `${'word '.repeat(400)}${'x'.repeat(1200)}. Short end.`;
    const passages = splitArticle(body);
    expect(passages.length).toBeGreaterThan(3);
    for (const p of passages) expect(p.length).toBeLessThanOrEqual(PASSAGE_CHARS);
    expect(passages.join(' ').replace(/\s+/g, '')).toBe(body.replace(/\s+/g, ''));
  });
});

describe('allPassages', () => {
  it('has one passage per FAQ entry (questions and answer) and sentence runs of each article with their source', () => {
    const passages = allPassages(kb());
    expect(passages.map((p) => p.id)).toEqual(['faq:e-hours', 'faq:e-shipping', 'faq:e-cafe', 'article:a-returns:1', 'article:a-about:1']);
    expect(passages[1]).toEqual({
      id: 'faq:e-shipping',
      source: { kind: 'faq', id: 'e-shipping', title: 'How long does shipping take?', link: 'https://shop.example/shipping' },
      text: 'Q: How long does shipping take? / When will my order arrive?\nA: Orders ship within 2 days; delivery takes 3 to 5 days.',
    });
    expect(passages[3]!.source).toEqual({ kind: 'article', id: 'a-returns', title: 'Returns policy' });
  });
});

describe('topPassages', () => {
  it('ranks the passage that answers the question first', () => {
    const top = topPassages(kb(), 'when are you open on friday?', 3);
    expect(top[0]!.id).toBe('faq:e-hours');
    expect(top[0]!.score).toBeGreaterThan(0);
  });

  it('finds article passages by their words and by the article title', () => {
    expect(topPassages(kb(), 'how do I get a refund', 1)[0]!.id).toBe('article:a-returns:1');
    expect(topPassages(kb(), 'returns policy', 1)[0]!.source.id).toBe('a-returns');
    expect(topPassages(kb(), 'where was the business founded', 1)[0]!.id).toBe('article:a-about:1');
  });

  it('matches across accents and plurals', () => {
    expect(topPassages(kb(), 'cafe', 1)[0]!.id).toBe('faq:e-cafe');
    expect(topPassages(kb(), 'refunds', 1)[0]!.id).toBe('article:a-returns:1');
  });

  it('returns only passages sharing a term with the query, at most k, best first', () => {
    expect(topPassages(kb(), 'unicorn spaceship', 5)).toEqual([]);
    expect(topPassages(kb(), '', 5)).toEqual([]);
    const top = topPassages(kb(), 'order delivery days shipping returns', 2);
    expect(top).toHaveLength(2);
    expect(top[0]!.score).toBeGreaterThanOrEqual(top[1]!.score);
  });

  it('weights the parts of a query', () => {
    const query = [
      { text: 'opening hours', weight: 0.3 },
      { text: 'shipping', weight: 1 },
    ];
    expect(topPassages(kb(), query, 1)[0]!.id).toBe('faq:e-shipping');
    expect(topPassages(kb(), [{ text: 'opening hours', weight: 1 }, { text: 'shipping', weight: 0.3 }], 1)[0]!.id).toBe('faq:e-hours');
  });

  it('prefers a rare term to a common one (IDF)', () => {
    // "days" occurs in three passages, "packaging" in one.
    expect(topPassages(kb(), 'days packaging', 1)[0]!.id).toBe('article:a-returns:1');
  });

  it('works on an empty knowledge base', () => {
    expect(topPassages(kb({ entries: [], articles: [] }), 'anything', 3)).toEqual([]);
  });

  it('never serves an old index for changed content, even with the same version number (versions count per client)', () => {
    const first = kb();
    expect(topPassages(first, 'loyalty points', 1)).toEqual([]);
    const other = kb({ entries: [{ id: 'e-points', questions: ['Do you have loyalty points?'], answer: 'Yes, 1 point per euro.', link: null }] });
    expect(topPassages(other, 'loyalty points', 1)[0]!.id).toBe('faq:e-points');
    // An equal copy (a knowledge base loaded again) ranks the same.
    expect(topPassages(structuredClone(first), 'opening hours', 1)[0]!.id).toBe('faq:e-hours');
  });
});

describe('conversationQuery', () => {
  it('weights the last customer turn fully, its burst less, and up to three context turns in all', () => {
    const turns = [
      turn('customer', 'very old question'),
      turn('customer', 'do you sell shoes?'),
      turn('ai', 'Yes, handmade shoes.'),
      turn('customer', 'I bought a pair'),
      turn('customer', 'can I return them?'),
      turn('agent', 'typing…'),
    ];
    expect(conversationQuery(turns)).toEqual([
      { text: 'can I return them?', weight: 1 },
      { text: 'I bought a pair', weight: 0.6 },
      { text: 'Yes, handmade shoes.', weight: 0.3 },
      { text: 'do you sell shoes?', weight: 0.3 },
    ]);
  });

  it('is empty when the customer has said nothing', () => {
    expect(conversationQuery([turn('ai', 'Hello!')])).toEqual([]);
  });

  it('lets a follow-up find the passage the conversation is about', () => {
    const turns = [turn('customer', 'how long does shipping take?'), turn('ai', 'Delivery takes 3 to 5 days.'), turn('customer', 'and is that everywhere?')];
    expect(topPassages(kb(), conversationQuery(turns), 1)[0]!.id).toBe('faq:e-shipping');
  });
});
