/** Unread counts above this show as "99+". */
const MAX_SHOWN = 99;

/** Text of the bell's badge; null hides it (nothing unread). */
export function unreadBadgeText(count: number): string | null {
  if (count <= 0) return null;
  return count > MAX_SHOWN ? `${MAX_SHOWN}+` : String(count);
}
