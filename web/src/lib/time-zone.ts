/** The browser's IANA time zone (for "by time of day" and the dates a report prints); UTC when the runtime does not say. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}
