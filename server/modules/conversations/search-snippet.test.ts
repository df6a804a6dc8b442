import { describe, expect, it } from 'vitest';
import { searchedText, snippetSegments, wordsOf } from './search-snippet';

describe('search snippet', () => {
  it('marks the matching words of a short message and keeps the rest as text', () => {
    expect(snippetSegments('My brakes squeal. Brakes!', new Set(['brakes', 'Brakes']))).toEqual([
      { text: 'My ', match: false },
      { text: 'brakes', match: true },
      { text: ' squeal. ', match: false },
      { text: 'Brakes', match: true },
      { text: '!', match: false },
    ]);
  });

  it('cuts a long message around the first match, at word boundaries, with ellipses', () => {
    const text = `${'lorem ipsum '.repeat(20)}the brakes are gone ${'dolor sit '.repeat(40)}`;
    const segments = snippetSegments(text, new Set(['brakes']));
    expect(segments[0]?.text.startsWith('…')).toBe(true);
    expect(segments.at(-1)?.text.endsWith('…')).toBe(true);
    expect(segments.filter((s) => s.match)).toEqual([{ text: 'brakes', match: true }]);
    const shown = segments.map((s) => s.text).join('');
    expect(shown.length).toBeLessThanOrEqual(205);
    expect(shown).toMatch(/^…(lorem|ipsum) /u);
    expect(shown).toMatch(/ (dolor|sit)…$/u);
  });

  it('keeps markup as text: nothing is escaped or removed, since the list renders segments as text', () => {
    expect(snippetSegments('<img src=x onerror=alert(1)> brakes', new Set(['brakes']))).toEqual([
      { text: '<img src=x onerror=alert(1)> ', match: false },
      { text: 'brakes', match: true },
    ]);
  });

  it('shows the start of the message when no word is marked', () => {
    expect(snippetSegments('Hello\nthere', new Set())).toEqual([{ text: 'Hello there', match: false }]);
  });

  it('lists distinct words and drops excluded search words', () => {
    expect(wordsOf("I don't know, I know")).toEqual(['I', "don't", 'know']);
    expect(searchedText('brakes -refund "pads"')).toBe('brakes "pads"');
  });
});
