/**
 * The custom-platform (API) channel's signature, both directions (common/api/channels.ts
 * `API_SIGNATURE`): `X-Parley-Signature: sha256=<hex HMAC-SHA256 of "<timestamp>.<raw body>">`
 * with the channel's signing secret, and `X-Parley-Timestamp` in Unix seconds. Binding the
 * timestamp into the MAC and refusing stale ones stops a captured request from being replayed
 * later; the message id makes a replay within the window harmless (it is stored once).
 */
import { API_SIGNATURE } from '../../../../common/api/channels';
import { hmacSha256Hex, safeEqual } from '../../../lib/crypto';

export function apiSignature(secret: string, timestamp: string, body: Buffer | string): string {
  const mac = hmacSha256Hex(secret, Buffer.concat([Buffer.from(`${timestamp}.`), Buffer.isBuffer(body) ? body : Buffer.from(body)]));
  return `sha256=${mac}`;
}

/** The two headers of a signed request sent now. */
export function signedHeaders(secret: string, body: Buffer | string, now: Date): Record<string, string> {
  const timestamp = String(Math.floor(now.getTime() / 1000));
  return {
    [API_SIGNATURE.timestampHeader]: timestamp,
    [API_SIGNATURE.signatureHeader]: apiSignature(secret, timestamp, body),
  };
}

export type SignatureCheck = 'valid' | 'missing' | 'stale' | 'mismatch';

/**
 * Checks a request's headers against its raw body bytes, in constant time. Anything but
 * `'valid'` must be refused the same way (the caller learns nothing about which check failed).
 */
export function checkApiSignature(
  secret: string,
  headers: { timestamp: string | string[] | undefined; signature: string | string[] | undefined },
  body: Buffer,
  now: Date,
): SignatureCheck {
  const { timestamp, signature } = headers;
  if (typeof timestamp !== 'string' || typeof signature !== 'string') return 'missing';
  if (!/^\d{1,12}$/u.test(timestamp)) return 'stale';
  if (Math.abs(now.getTime() / 1000 - Number(timestamp)) > API_SIGNATURE.toleranceSeconds) return 'stale';
  return safeEqual(signature.trim().toLowerCase(), apiSignature(secret, timestamp, body)) ? 'valid' : 'mismatch';
}
