/**
 * The app secrets webhook signatures are checked against, per channel kind, opened once and kept
 * in memory for a few seconds (one Meta app usually serves many channels, so there are few
 * distinct secrets). Each secret knows the channels that use it: a delivery signed with app A may
 * only reach A's channels.
 *
 * Freshness: a stale list (older than `maxAgeMs`) is served while a reload runs, so a disabled
 * channel stops being accepted within a few seconds; a signature that matches nothing reloads at
 * once (at most every `minReloadMs`), so a channel created a moment ago — or a rotated secret —
 * works on its first delivery. `invalidate()` drops everything (channel changes in this process).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Logger } from 'pino';
import type { Channel, ChannelKind } from '../../db/schema';
import type { ChannelDirectory } from '../channels';

export interface SecretGroup {
  readonly secret: Buffer;
  /** External id (phone number id, page id, Instagram account id) → channel id. */
  readonly channels: ReadonlyMap<string, string>;
}

interface CacheEntry {
  groups: SecretGroup[];
  /** The active channels of the kind as loaded, by id (the processing job reads them from here). */
  channels: ReadonlyMap<string, Channel>;
  loadedAt: number;
}

export interface WebhookSecretsOptions {
  maxAgeMs?: number;
  minReloadMs?: number;
}

const SIGNATURE = /^sha256=([0-9a-f]{64})$/iu;

/** The group whose secret signed `raw`, compared in constant time; undefined when none did. */
export function matchSignature(raw: Buffer, header: string | undefined, groups: readonly SecretGroup[]): SecretGroup | undefined {
  const hex = header === undefined ? undefined : SIGNATURE.exec(header.trim())?.[1];
  if (hex === undefined) return undefined;
  const given = Buffer.from(hex, 'hex');
  let found: SecretGroup | undefined;
  for (const group of groups) {
    const expected = createHmac('sha256', group.secret).update(raw).digest();
    if (timingSafeEqual(expected, given)) found ??= group;
  }
  return found;
}

export function isWellFormedSignature(header: string | undefined): boolean {
  return header !== undefined && SIGNATURE.test(header.trim());
}

export class WebhookSecrets {
  readonly #channels: ChannelDirectory;
  readonly #logger: Logger;
  readonly #maxAgeMs: number;
  readonly #minReloadMs: number;
  readonly #entries = new Map<ChannelKind, CacheEntry>();
  readonly #loading = new Map<ChannelKind, Promise<CacheEntry>>();
  #generation = 0;

  constructor(channels: ChannelDirectory, logger: Logger, options: WebhookSecretsOptions = {}) {
    this.#channels = channels;
    this.#logger = logger;
    this.#maxAgeMs = options.maxAgeMs ?? 5_000;
    this.#minReloadMs = options.minReloadMs ?? 1_000;
  }

  async groups(kind: ChannelKind): Promise<SecretGroup[]> {
    return this.peek(kind) ?? (await this.#load(kind)).groups;
  }

  /**
   * The kind's groups as loaded, without waiting: undefined before the first load. A stale list
   * is returned too and starts a reload, as `groups()` does.
   */
  peek(kind: ChannelKind): SecretGroup[] | undefined {
    const entry = this.#entries.get(kind);
    if (!entry) return undefined;
    if (Date.now() - entry.loadedAt > this.#maxAgeMs) {
      this.#load(kind).catch((error: unknown) => this.#logger.error({ err: error, kind }, 'reloading webhook secrets failed'));
    }
    return entry.groups;
  }

  /**
   * An active channel of this kind as of the cached list (as fresh as the signature check's), or
   * undefined when it is not in it — the caller then reads the database.
   */
  async channel(kind: ChannelKind, id: string): Promise<Channel | undefined> {
    await this.groups(kind);
    return this.#entries.get(kind)?.channels.get(id);
  }

  /** Reloads now unless the list is younger than `minReloadMs`; resolves whether it reloaded. */
  async reload(kind: ChannelKind): Promise<boolean> {
    const entry = this.#entries.get(kind);
    if (entry && Date.now() - entry.loadedAt < this.#minReloadMs) return false;
    await this.#load(kind);
    return true;
  }

  invalidate(): void {
    this.#generation += 1;
    this.#entries.clear();
    this.#loading.clear();
  }

  #load(kind: ChannelKind): Promise<CacheEntry> {
    const running = this.#loading.get(kind);
    if (running) return running;
    const generation = this.#generation;
    const loading = this.#read(kind).finally(() => {
      if (this.#loading.get(kind) === loading) this.#loading.delete(kind);
    });
    this.#loading.set(kind, loading);
    return loading.then((entry) => {
      if (generation === this.#generation) this.#entries.set(kind, entry);
      return entry;
    });
  }

  async #read(kind: ChannelKind): Promise<CacheEntry> {
    const loadedAt = Date.now();
    const bySecret = new Map<string, Map<string, string>>();
    const byId = new Map<string, Channel>();
    for (const channel of await this.#channels.findActiveByKind(kind)) {
      byId.set(channel.id, channel);
      if (!channel.externalId) continue;
      let appSecret: string | undefined;
      try {
        appSecret = this.#channels.openSecrets(channel).secretValues.appSecret;
      } catch (error) {
        // One unreadable channel (sealed with another SECRETS_KEY) must not stop the others.
        this.#logger.error({ err: error, channelId: channel.id }, 'cannot open the secrets of a channel');
        continue;
      }
      if (!appSecret) continue;
      const channels = bySecret.get(appSecret) ?? new Map<string, string>();
      channels.set(channel.externalId, channel.id);
      bySecret.set(appSecret, channels);
    }
    const groups = [...bySecret].map(([secret, channels]) => ({ secret: Buffer.from(secret, 'utf8'), channels }));
    return { groups, channels: byId, loadedAt };
  }
}
