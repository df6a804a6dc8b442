/** An ILIKE pattern matching `text` anywhere, with LIKE's wildcards in it taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/gu, (c) => `\\${c}`)}%`;
}
