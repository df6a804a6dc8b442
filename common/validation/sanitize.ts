/**
 * Input sanitising of spec part 1 §5, for text an editor stores (the content panel, blog posts)
 * and text visitors send (the contact form):
 * - text that looks like script-like HTML (`<script`, `<iframe`, `<object`, `<embed`) is REFUSED
 *   with `SCRIPT_LIKE_MESSAGE` (a 400 with the field's message), never silently cut;
 * - otherwise angle brackets, `javascript:`, `vbscript:`, `data:` URLs other than images, inline
 *   event handlers (`onclick=` …), `expression(`, `import(` and `eval(` are removed;
 * - "heavy" sanitising (the result under 80 % of the original length) is flagged to the editor.
 *
 * Markdown bodies are not passed through `sanitizeText` (a blockquote starts with `>`): they are
 * only checked with `looksLikeScript`, stored as written, and rendered through marked and
 * sanitize-html on the server (server/modules/content).
 */
import { z } from 'zod';

export const SCRIPT_LIKE_MESSAGE = 'Scripts, frames and embedded objects are not allowed';
export const HEAVY_SANITIZING_RATIO = 0.8;

const SCRIPT_LIKE = /<\s*\/?\s*(script|iframe|object|embed)\b/iu;
const NON_IMAGE_DATA_URL = /data:(?!image\/(?:png|jpe?g|gif|webp|avif);base64,)[^\s"'()]*/giu;
const REMOVED = [
  /javascript\s*:/giu,
  /vbscript\s*:/giu,
  /\bon[a-z]{3,}\s*=/giu,
  /expression\s*\(/giu,
  /import\s*\(/giu,
  /eval\s*\(/giu,
  /[<>]/gu,
];

/** True when the text holds script, iframe, object or embed markup (refused, spec part 1 §5). */
export function looksLikeScript(value: string): boolean {
  return SCRIPT_LIKE.test(value);
}

/**
 * The text with the spec's dangerous patterns removed, repeated until nothing more changes: a
 * removal can join a pattern (`javajavascript:script:`), and a fixed number of passes would let a
 * deeper nesting through. Every pass that changes the text shortens it, so this ends.
 */
export function sanitizeText(value: string): string {
  let out = value;
  for (;;) {
    let next = out.replace(NON_IMAGE_DATA_URL, '');
    for (const pattern of REMOVED) next = next.replace(pattern, '');
    if (next === out) return out;
    out = next;
  }
}

/** Heavy sanitising: what is left is under 80 % of what was written. */
export function isHeavilySanitized(original: string, sanitized: string): boolean {
  return original.length > 0 && sanitized.length < original.length * HEAVY_SANITIZING_RATIO;
}

/**
 * A stored text field: trimmed, at most `max` characters, refused when script-like, then sanitised
 * and trimmed again; with `required`, what is left after sanitising must not be empty (a heading
 * of `<>` is as missing as an empty one).
 */
export function safeText(options: { required?: string; max: number; tooLong?: string }) {
  const text = z
    .string({ error: options.required ?? 'This field is required' })
    .trim()
    .max(options.max, { error: options.tooLong ?? `Must be at most ${options.max} characters` })
    .refine((value) => !looksLikeScript(value), { error: SCRIPT_LIKE_MESSAGE })
    .transform((value) => sanitizeText(value).trim());
  const required = options.required;
  return required === undefined ? text : text.refine((value) => value.length > 0, { error: required });
}

/** Short-link hosts whose links are never opened (spec part 1 §5 external links). */
export const SHORT_LINK_HOSTS: readonly string[] = ['bit.ly', 'tinyurl.com', 'short.link', 't.co'];
export const HTTPS_URL_MESSAGE = 'Please enter a full https:// URL';
export const SHORT_LINK_MESSAGE = 'Short links are not allowed; use the full address';

/** External links open only when https and not on the short-link list. */
export function isSafeExternalUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:') return false;
  const host = url.hostname.toLowerCase();
  return !SHORT_LINK_HOSTS.some((short) => host === short || host.endsWith(`.${short}`));
}

/** An https URL (images, links an editor stores): required message, then the external-link rules. */
export function httpsUrl(required: string) {
  return z
    .string({ error: required })
    .trim()
    .min(1, { error: required })
    .max(2_000, { error: 'URL is too long' })
    .refine((value) => /^https:\/\//iu.test(value) && URL.canParse(value), { error: HTTPS_URL_MESSAGE })
    .refine((value) => isSafeExternalUrl(value), { error: SHORT_LINK_MESSAGE });
}
