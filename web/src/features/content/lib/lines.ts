/** Lists entered one per line (spec part 2 §5): blank lines are dropped, each line trimmed. */
export function linesToList(text: string): string[] {
  return text
    .split(/\r?\n/u)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

export function listToLines(list: readonly string[]): string {
  return list.join('\n');
}
