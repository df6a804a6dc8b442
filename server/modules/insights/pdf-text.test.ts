import { describe, expect, it } from 'vitest';
import { REPORT_UNSHOWN_TEXT } from '../../../common/api/reports';
import { toPdfText } from './pdf-text';

const M = REPORT_UNSHOWN_TEXT;

describe('text for the standard PDF font', () => {
  it('keeps what WinAnsi has: ASCII, Latin-1 accents and the typographic extras', () => {
    expect(toPdfText('Café “déjà vu” – 5 € … Œuvre ™')).toEqual({ text: 'Café “déjà vu” – 5 € … Œuvre ™', replaced: false });
  });

  it('drops accents WinAnsi lacks and writes a few symbols in ASCII', () => {
    expect(toPdfText('Zażółć gęślą jaźń, Łódź, İstanbul, Şişli, Hà Nội')).toEqual({ text: 'Zazólc gesla jazn, Lódz, Istanbul, Sisli, Hà Noi', replaced: false });
    expect(toPdfText('a → b ≥ 2 − 1 ﬁne')).toEqual({ text: 'a -> b >= 2 - 1 fine', replaced: false });
  });

  it('turns each run of another script or emoji into one marker and says so', () => {
    expect(toPdfText('Можно ли взять велосипед напрокат?')).toEqual({ text: `${M}?`, replaced: true });
    expect(toPdfText('Price 价格 please 🚲👍🏽 thanks')).toEqual({ text: `Price ${M} please ${M} thanks`, replaced: true });
    expect(toPdfText('مرحبا')).toEqual({ text: M, replaced: true });
  });

  it('reads line breaks and tabs as spaces, and drops zero-width characters', () => {
    expect(toPdfText('one\ntwo\tthree\u200b')).toEqual({ text: 'one two three', replaced: false });
  });
});
