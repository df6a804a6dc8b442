/** Where to go after signing in: only a path on this site, never `//evil.example` or a URL. */
export const DEFAULT_AFTER_SIGN_IN = '/dashboard';

export function safeRedirect(raw: string | null | undefined, fallback: string = DEFAULT_AFTER_SIGN_IN): string {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return fallback;
  if ([...raw].some((char) => char.charCodeAt(0) < 0x20)) return fallback;
  return raw;
}

/** `/login?redirectTo=…`, remembering the page a signed-out visitor tried to open. */
export function loginPathFor(origin: string | null): string {
  if (origin === null || origin === '' || origin === '/') return '/login';
  return `/login?redirectTo=${encodeURIComponent(origin)}`;
}
