/**
 * RFC 6238 TOTP (HMAC-SHA1, 6 digits, 30 s) for tests, with node:crypto: what an authenticator
 * app computes from the `otpauth://` URI Parley shows as a QR code.
 */
import { createHmac } from 'node:crypto';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Decode(input: string): Buffer {
  const clean = input.replace(/=+$/u, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index === -1) throw new Error(`not base32: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

export function hotp(key: Buffer, counter: number, digits = 6): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', key).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** The secret of an `otpauth://totp/...?secret=BASE32` URI. */
export function secretFromUri(uri: string): Buffer {
  const secret = new URL(uri).searchParams.get('secret');
  if (!secret) throw new Error(`no secret in ${uri}`);
  return base32Decode(secret);
}

export function totp(key: Buffer, at: number = Date.now(), period = 30, digits = 6): string {
  return hotp(key, Math.floor(at / 1000 / period), digits);
}

/** A six-digit code that is valid at no step within ±2 periods of `at` (a wrong code, for sure). */
export function wrongTotp(key: Buffer, at: number = Date.now()): string {
  const valid = new Set([-2, -1, 0, 1, 2].map((step) => totp(key, at + step * 30_000)));
  for (let n = 0; ; n++) {
    const candidate = String(n).padStart(6, '0');
    if (!valid.has(candidate)) return candidate;
  }
}
