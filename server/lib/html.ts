/** `value` safe inside HTML or XML text and double- or single-quoted attributes. */
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/gu, (c) => ESCAPES[c] ?? c);
}
