import { describe, expect, it } from 'vitest';
import { derivePriority, formatResponseTime, higherPriority, KEYWORD_SUMMARIES, keywordSummary } from './keyword-rules';

describe('derivePriority (spec §9 keywords)', () => {
  it.each(['This is URGENT', 'emergency!', 'reply asap', 'do it immediately', 'critical bug', 'I have a problem', 'an issue with', 'it is broken', 'app not working'])(
    'rates "%s" high',
    (text) => expect(derivePriority(text)).toBe('high'),
  );
  it.each(['can you help', 'quick question', 'I need a refund', 'assistance please', 'support team'])('rates "%s" medium', (text) =>
    expect(derivePriority(text)).toBe('medium'),
  );
  it('rates other text low, and needs whole words', () => {
    expect(derivePriority('hello there')).toBe('low');
    expect(derivePriority('tissue paper')).toBe('low');
    expect(derivePriority('helpful staff')).toBe('low');
  });
  it('prefers high over medium', () => expect(derivePriority('urgent help')).toBe('high'));
  it('keeps the higher of two priorities', () => {
    expect(higherPriority('low', 'high')).toBe('high');
    expect(higherPriority('medium', 'low')).toBe('medium');
  });
});

describe('keywordSummary', () => {
  it('follows the rules in order', () => {
    expect(keywordSummary('I forgot my password')).toBe(KEYWORD_SUMMARIES.authentication);
    expect(keywordSummary('where is my order')).toBe(KEYWORD_SUMMARIES.order);
    expect(keywordSummary('delivery was late')).toBe(KEYWORD_SUMMARIES.order);
    expect(keywordSummary('there is a problem')).toBe(KEYWORD_SUMMARIES.technical);
    expect(keywordSummary('thank you, great job')).toBe(KEYWORD_SUMMARIES.positive);
    expect(keywordSummary('what are your hours?')).toBe(KEYWORD_SUMMARIES.general);
    expect(keywordSummary('login problem with my order')).toBe(KEYWORD_SUMMARIES.authentication);
  });
});

describe('formatResponseTime', () => {
  it.each([
    [0, '< 1 min'],
    [59, '< 1 min'],
    [60, '1 min'],
    [59 * 60, '59 min'],
    [3600, '1 h 0 min'],
    [3600 + 5 * 60 + 30, '1 h 5 min'],
    [86400 + 4 * 3600, '1 d 4 h'],
  ])('%s s → %s', (seconds, text) => expect(formatResponseTime(seconds)).toBe(text));
  it('shows a dash when there is no response yet', () => expect(formatResponseTime(null)).toBe('—'));
});
