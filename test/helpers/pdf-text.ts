/**
 * The text of a PDF as pdfkit writes it, for tests: every content stream (inflated when it is
 * compressed), each text object (BT … ET) one line, its strings decoded from WinAnsi — what a
 * reader would copy out of the standard-font reports (server/modules/insights/report-pdf.ts).
 */
import { inflateSync } from 'node:zlib';

/** Windows-1252's 0x80–0x9F (Node's TextDecoder reads them as Latin-1 control characters). */
const WIN_ANSI_HIGH: Record<number, string> = {
  0x80: '€', 0x82: '‚', 0x83: 'ƒ', 0x84: '„', 0x85: '…', 0x86: '†', 0x87: '‡', 0x88: 'ˆ', 0x89: '‰', 0x8a: 'Š', 0x8b: '‹', 0x8c: 'Œ', 0x8e: 'Ž',
  0x91: '‘', 0x92: '’', 0x93: '“', 0x94: '”', 0x95: '•', 0x96: '–', 0x97: '—', 0x98: '˜', 0x99: '™', 0x9a: 'š', 0x9b: '›', 0x9c: 'œ', 0x9e: 'ž', 0x9f: 'Ÿ',
};

const fromWinAnsi = (code: number): string => WIN_ANSI_HIGH[code] ?? String.fromCharCode(code);

function decodeHex(hex: string): string {
  const clean = hex.replace(/\s+/gu, '');
  let out = '';
  for (let i = 0; i + 1 < clean.length; i += 2) out += fromWinAnsi(Number.parseInt(clean.slice(i, i + 2), 16));
  return out;
}

/** Literal strings `( … )` with their escapes. */
function decodeLiteral(literal: string): string {
  return literal.replace(/\\([nrtbf()\\]|[0-7]{1,3})/gu, (_, escape: string) => {
    const simple: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', '(': '(', ')': ')', '\\': '\\' };
    return simple[escape] ?? fromWinAnsi(Number.parseInt(escape, 8));
  });
}

/** The content streams of the file, inflated where they are compressed. */
function streams(pdf: Buffer): string[] {
  const out: string[] = [];
  const source = pdf.toString('latin1');
  const pattern = /stream\r?\n/gu;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(source)) !== null) {
    const start = match.index + match[0].length;
    const end = source.indexOf('endstream', start);
    if (end < 0) break;
    const raw = pdf.subarray(start, end);
    let text: string;
    try {
      text = inflateSync(raw).toString('latin1');
    } catch {
      text = raw.toString('latin1');
    }
    out.push(text);
    pattern.lastIndex = end + 'endstream'.length;
  }
  return out;
}

/** The PDF's text, one line per text object, in the order it is drawn. */
export function pdfText(pdf: Buffer): string {
  const lines: string[] = [];
  for (const content of streams(pdf)) {
    for (const block of content.matchAll(/BT([\s\S]*?)ET/gu)) {
      let line = '';
      for (const show of block[1]!.matchAll(/(\[(?:[^\]]*)\]\s*TJ)|(<[0-9a-fA-F\s]*>\s*Tj)|(\((?:\\.|[^\\)])*\)\s*Tj)/gu)) {
        const op = show[0];
        for (const part of op.matchAll(/<([0-9a-fA-F\s]*)>|\(((?:\\.|[^\\)])*)\)/gu)) {
          line += part[1] !== undefined ? decodeHex(part[1]) : decodeLiteral(part[2] ?? '');
        }
      }
      if (line !== '') lines.push(line);
    }
  }
  return lines.join('\n');
}
