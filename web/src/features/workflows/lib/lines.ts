/** Lists entered one per line (apps, triggers): trimmed, blank lines dropped, duplicates kept once. */
export function splitLines(text: string): string[] {
  return [...new Set(text.split(/\r?\n/u).map((line) => line.trim()).filter((line) => line !== ''))];
}

export const joinLines = (items: readonly string[]) => items.join('\n');
