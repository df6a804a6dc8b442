/**
 * The api_keys table. Views join the owner's name and e-mail (users, read only). Only the sha256
 * of a key is stored; `prefix` finds the row, then the caller compares the hash in constant time.
 */
import type { Db } from '../../db/database';

function viewsQuery(db: Db) {
  return db
    .selectFrom('apiKeys as k')
    .innerJoin('users as u', 'u.id', 'k.userId')
    .select([
      'k.id',
      'k.name',
      'k.prefix',
      'k.scopes',
      'k.service',
      'k.userId',
      'u.fullName as ownerName',
      'u.email as ownerEmail',
      'k.createdAt',
      'k.expiresAt',
      'k.lastUsedAt',
      'k.lastUsedIp',
    ])
    .where('k.revokedAt', 'is', null);
}

export type ApiKeyRow = Awaited<ReturnType<ReturnType<typeof viewsQuery>['executeTakeFirstOrThrow']>>;

export interface NewApiKey {
  userId: string;
  name: string;
  service: boolean;
  prefix: string;
  keyHash: string;
  scopes: string[];
  expiresAt: Date | null;
}

export interface ApiKeyCredential {
  id: string;
  userId: string;
  keyHash: string;
  scopes: string[];
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

export class ApiKeysRepository {
  constructor(private readonly db: Db) {}

  /** A user's own keys (service keys left out), newest first. */
  async findPersonalKeys(userId: string): Promise<ApiKeyRow[]> {
    return viewsQuery(this.db).where('k.userId', '=', userId).where('k.service', '=', false).orderBy('k.createdAt', 'desc').orderBy('k.id').execute();
  }

  /** Every service-account key, newest first. */
  async findServiceKeys(): Promise<ApiKeyRow[]> {
    return viewsQuery(this.db).where('k.service', '=', true).orderBy('k.createdAt', 'desc').orderBy('k.id').execute();
  }

  async findKeyRow(id: string): Promise<ApiKeyRow | undefined> {
    return viewsQuery(this.db).where('k.id', '=', id).executeTakeFirst();
  }

  /** Inserts a key; undefined when the prefix is already taken (the caller draws another). */
  async insertKey(key: NewApiKey, db: Db = this.db): Promise<string | undefined> {
    const row = await db
      .insertInto('apiKeys')
      .values(key)
      .onConflict((oc) => oc.column('prefix').doNothing())
      .returning('id')
      .executeTakeFirst();
    return row?.id;
  }

  /** Revokes a live key matching the filter; false when there was none. */
  async revokeKey(filter: { id: string; userId?: string; service: boolean }, revokedBy: string, at: Date, db: Db = this.db): Promise<boolean> {
    let q = db
      .updateTable('apiKeys')
      .set({ revokedAt: at, revokedBy })
      .where('id', '=', filter.id)
      .where('service', '=', filter.service)
      .where('revokedAt', 'is', null);
    if (filter.userId !== undefined) q = q.where('userId', '=', filter.userId);
    const result = await q.executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** The credential behind a prefix, revoked or not (so the caller can say which). */
  async findCredential(prefix: string): Promise<ApiKeyCredential | undefined> {
    return this.db
      .selectFrom('apiKeys')
      .select(['id', 'userId', 'keyHash', 'scopes', 'expiresAt', 'revokedAt', 'lastUsedAt'])
      .where('prefix', '=', prefix)
      .executeTakeFirst();
  }

  /** Records a use unless one was recorded within the last minute (one write a minute per key). */
  async touchLastUsed(id: string, ip: string, at: Date): Promise<void> {
    await this.db
      .updateTable('apiKeys')
      .set({ lastUsedAt: at, lastUsedIp: ip.slice(0, 100) })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('lastUsedAt', 'is', null), eb('lastUsedAt', '<', new Date(at.getTime() - 60_000))]))
      .execute();
  }
}
