/**
 * Password hashing with Node's native scrypt (runs on the libuv pool, not the event loop).
 * Parameters: N=2^15, r=8, p=1, 64-byte key, 16-byte salt — 32 MiB and about 100 ms per hash on
 * this 2-core machine (about 10 sign-ins per second per core); `npm run bench` prints the cost beside the sign-in rate so the choice stays
 * visible. The parameters are stored in each hash, so they can be raised later without breaking
 * existing passwords.
 */
import { randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';

export const SCRYPT_PARAMS = { N: 2 ** 15, r: 8, p: 1, keyLength: 64, saltLength: 16 } as const;

function scrypt(password: string, salt: Buffer, keyLength: number, N: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCb(password.normalize('NFKC'), salt, keyLength, { N, r, p, maxmem: 256 * N * r }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const { N, r, p, keyLength, saltLength } = SCRYPT_PARAMS;
  const salt = randomBytes(saltLength);
  const key = await scrypt(password, salt, keyLength, N, r, p);
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

export async function verifyPassword({ hash, password }: { hash: string; password: string }): Promise<boolean> {
  const parts = hash.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, n, r, p, saltText, keyText] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(keyText, 'base64url');
  const N = Number(n);
  const R = Number(r);
  const P = Number(p);
  if (!Number.isInteger(N) || !Number.isInteger(R) || !Number.isInteger(P) || expected.length === 0) return false;
  const key = await scrypt(password, Buffer.from(saltText, 'base64url'), expected.length, N, R, P);
  return timingSafeEqual(key, expected);
}

/** Told of every hash computed and every password checked (tests and the bench count them). */
export interface PasswordObserver {
  hashed?(): void;
  verified?(match: boolean): void;
}

/** better-auth's `password` option: the functions above, reporting to an observer. */
export interface PasswordHashing {
  hash(password: string): Promise<string>;
  verify(input: { hash: string; password: string }): Promise<boolean>;
}

export function observedPasswordHashing(observer: PasswordObserver = {}): PasswordHashing {
  return {
    async hash(password) {
      const hash = await hashPassword(password);
      observer.hashed?.();
      return hash;
    },
    async verify(input) {
      const match = await verifyPassword(input);
      observer.verified?.(match);
      return match;
    },
  };
}
