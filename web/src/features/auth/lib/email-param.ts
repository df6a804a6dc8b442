/** The longest address the auth forms accept (RFC 5321's path limit). */
const EMAIL_MAX = 254;

/**
 * `?email=` of a link Parley sent (an onboarding confirmation's "Create your account" or "Sign
 * in"), to fill the form's Email field: the trimmed address when it looks like one, else ''.
 * Only a starting value — the form validates it like anything typed.
 */
export function emailParam(params: URLSearchParams): string {
  const value = (params.get('email') ?? '').trim();
  return value.length <= EMAIL_MAX && /^[^\s@]+@[^\s@]+\.[^\s@]+$/u.test(value) ? value : '';
}
