/**
 * Text for the PDF reports' standard font. Helvetica, one of the 14 fonts every PDF reader has,
 * draws only the WinAnsi characters (Latin-1 plus a few typographic ones); pdfkit writes any other
 * character as a wrong glyph. Parley ships no font file covering every script (a CJK font alone is
 * 10–20 MB), so customers' words and names are made drawable here: letters with accents outside
 * WinAnsi lose the accent ("ő" → "o", "ł" → "l"), a few symbols get their ASCII form, and each run
 * of what is left (Cyrillic, Greek, Arabic, CJK, emoji …) becomes one REPORT_UNSHOWN_TEXT marker,
 * which the report then explains (docs/DECISIONS.md).
 */
import { REPORT_UNSHOWN_TEXT } from '../../../common/api/reports';

/** The WinAnsi characters above Latin-1 (Windows-1252's 0x80–0x9F), which the standard fonts draw. */
const WIN_ANSI_EXTRA = new Set([
  0x0152, 0x0153, 0x0160, 0x0161, 0x0178, 0x017d, 0x017e, 0x0192, 0x02c6, 0x02dc, 0x2013, 0x2014, 0x2018, 0x2019, 0x201a, 0x201c, 0x201d, 0x201e, 0x2020,
  0x2021, 0x2022, 0x2026, 0x2030, 0x2039, 0x203a, 0x20ac, 0x2122,
]);

/** Letters and symbols whose decomposition does not give a drawable form. */
const SUBSTITUTES: Record<string, string> = {
  ł: 'l',
  Ł: 'L',
  đ: 'd',
  Đ: 'D',
  ħ: 'h',
  Ħ: 'H',
  ı: 'i',
  ŧ: 't',
  Ŧ: 'T',
  ŋ: 'n',
  Ŋ: 'N',
  ĸ: 'k',
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2015': '-',
  '\u2212': '-',
  '\u2032': "'",
  '\u2033': '"',
  '\u2190': '<-',
  '\u2192': '->',
  '\u2264': '<=',
  '\u2265': '>=',
  '\u2260': '!=',
  '\u2248': '~',
};

function drawable(codePoint: number): boolean {
  return (codePoint >= 0x20 && codePoint <= 0x7e) || (codePoint >= 0xa0 && codePoint <= 0xff) || WIN_ANSI_EXTRA.has(codePoint);
}

/** One character in a drawable form, '' for a mark that belongs to the character before, or null when it has none. */
function drawableForm(char: string): string | null {
  const codePoint = char.codePointAt(0)!;
  if (drawable(codePoint)) return char;
  // Line breaks, tabs and other spaces and controls read as a space in a table cell.
  if (codePoint < 0x20 || codePoint === 0x7f || /^\s$/u.test(char)) return ' ';
  const substitute = SUBSTITUTES[char];
  if (substitute !== undefined) return substitute;
  // Zero-width joiners and variation selectors go with whatever they join.
  if (/^\p{M}$/u.test(char) || (codePoint >= 0x200b && codePoint <= 0x200f) || codePoint === 0x2060 || (codePoint >= 0xfe00 && codePoint <= 0xfe0f)) return '';
  // "ő" → "o", "ﬁ" → "fi", "Ａ" → "A": the compatibility decomposition without its marks.
  const plain = char.normalize('NFKD').replace(/\p{M}/gu, '');
  if (plain !== '' && [...plain].every((c) => drawable(c.codePointAt(0)!))) return plain;
  return null;
}

/**
 * `text` as the standard PDF font can draw it, and whether anything had to be left out. A run of
 * characters without a drawable form (spaces between them included) becomes one marker.
 */
export function toPdfText(text: string): { text: string; replaced: boolean } {
  let out = '';
  let replaced = false;
  /** Spaces seen since the last marker, kept only if something drawable follows. */
  let pendingSpace = '';
  let afterMarker = false;
  for (const char of text.normalize('NFC')) {
    const form = drawableForm(char);
    if (form === '') {
      continue;
    } else if (form === null) {
      replaced = true;
      if (!afterMarker) out += pendingSpace + REPORT_UNSHOWN_TEXT;
      pendingSpace = '';
      afterMarker = true;
    } else if (form.trim() === '') {
      pendingSpace += form;
    } else {
      out += pendingSpace + form;
      pendingSpace = '';
      afterMarker = false;
    }
  }
  return { text: out + pendingSpace, replaced };
}
