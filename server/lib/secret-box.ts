/**
 * Secrets at rest (channel access tokens, app secrets, signing secrets): AES-256-GCM with a key
 * from configuration. Sealed values read `v1.<keyId>.<iv>.<tag>.<ciphertext>` (base64url); the key
 * id (a fingerprint of the key) makes a wrong key fail with a clear message instead of garbage.
 *
 * SECRETS_KEY: 32 bytes as 64 hex characters or base64, or any passphrase of ≥ 32 characters
 * (hashed to 32 bytes). Without it, a random key is generated once into DATA_DIR/secrets.key
 * (mode 0600) — fine for one instance; several instances sharing PostgreSQL must all be given
 * the same SECRETS_KEY.
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export class SecretBoxError extends Error {}

export class SecretBox {
  readonly #key: Buffer;
  readonly keyId: string;
  /** Where the key came from, for messages: `SECRETS_KEY` or the key file's path. */
  readonly source: string;

  constructor(key: Buffer, source = 'SECRETS_KEY') {
    if (key.length !== 32) throw new SecretBoxError('The secrets key must be 32 bytes');
    this.#key = key;
    this.keyId = createHash('sha256').update(key).digest('base64url').slice(0, 8);
    this.source = source;
  }

  /**
   * What the database records to recognise this key (modules/system/secrets-key-check.ts): an
   * HMAC of a fixed label under the key — it proves the key without revealing it.
   */
  fingerprint(): string {
    return createHmac('sha256', this.#key).update('parley secrets-key fingerprint v1').digest('base64url');
  }

  /** The key itself, as 64 hex characters: only for `parley backup`, whose file must carry it. */
  exportKey(): string {
    return this.#key.toString('hex');
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', this.keyId, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join('.');
  }

  open(sealed: string): string {
    const [version, keyId, iv, tag, ciphertext] = sealed.split('.');
    if (version !== 'v1' || !keyId || !iv || !tag || ciphertext === undefined) throw new SecretBoxError('Not a sealed secret');
    if (keyId !== this.keyId) {
      throw new SecretBoxError('This secret was sealed with another SECRETS_KEY; configure the key it was created with');
    }
    const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }

  sealJson(value: unknown): string {
    return this.seal(JSON.stringify(value));
  }

  openJson(sealed: string): unknown {
    return JSON.parse(this.open(sealed));
  }
}

export function parseSecretsKey(value: string): Buffer {
  const trimmed = value.trim();
  if (/^[0-9a-f]{64}$/iu.test(trimmed)) return Buffer.from(trimmed, 'hex');
  const b64 = Buffer.from(trimmed, 'base64');
  if (b64.length === 32 && /^[A-Za-z0-9+/_-]+={0,2}$/u.test(trimmed)) return b64;
  if (trimmed.length >= 32) return createHash('sha256').update(trimmed).digest();
  throw new SecretBoxError('SECRETS_KEY must be 32 bytes (64 hex characters or base64) or a passphrase of at least 32 characters');
}

/** The configured key, or the one in DATA_DIR/secrets.key (created on first use). */
export function loadSecretBox(options: { secretsKey: string | undefined; dataDir: string }): SecretBox {
  if (options.secretsKey) return new SecretBox(parseSecretsKey(options.secretsKey));
  const file = secretsKeyPath(options.dataDir);
  try {
    return new SecretBox(parseSecretsKey(fs.readFileSync(file, 'utf8')), file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  fs.mkdirSync(options.dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, randomBytes(32).toString('hex'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return new SecretBox(parseSecretsKey(fs.readFileSync(file, 'utf8')), file);
}

export function secretsKeyPath(dataDir: string): string {
  return path.join(dataDir, 'secrets.key');
}
