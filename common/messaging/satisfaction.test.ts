import { describe, expect, it } from 'vitest';
import { parseRating, surveyRequestText } from './satisfaction';

describe('parseRating', () => {
  it.each([
    ['5', 5, null],
    [' 3 ', 3, null],
    ['4/5', 4, null],
    ['4 / 5', 4, null],
    ['2 out of 5', 2, null],
    ['5 stars', 5, null],
    ['1 star', 1, null],
    ['5 - quick and helpful', 5, 'quick and helpful'],
    ['4: good, but slow', 4, 'good, but slow'],
    ['3.', 3, null],
    ['2, the bot did not understand me', 2, 'the bot did not understand me'],
    ['5!', 5, null],
    ['4\nthanks a lot', 4, 'thanks a lot'],
    ['⭐⭐⭐⭐', 4, null],
    ['★★', 2, null],
    ['4/5 - great', 4, 'great'],
  ])('%j is %d', (text, rating, comment) => {
    expect(parseRating(text)).toEqual({ rating, comment });
  });

  it.each(['0', '6', '10', '45', '3.5', '2,5', '1 more question', 'five', 'my order 5 is late', '', 'hello', '⭐⭐⭐⭐⭐⭐'])('%j is not a rating', (text) => {
    expect(parseRating(text)).toBeNull();
  });

  it('keeps a long comment to the stored length', () => {
    expect(parseRating(`5 - ${'a'.repeat(3000)}`)?.comment).toHaveLength(2000);
  });
});

describe('surveyRequestText', () => {
  it('asks numbered channels for a number and others only the question', () => {
    expect(surveyRequestText('How did we do?', false)).toBe('How did we do?');
    const numbered = surveyRequestText('How did we do?', true);
    expect(numbered.startsWith('How did we do?\n')).toBe(true);
    expect(numbered).toContain('Reply with a number from 1 (very poor) to 5 (excellent)');
    expect(parseRating('5 - quick and helpful')).toEqual({ rating: 5, comment: 'quick and helpful' });
  });
});
