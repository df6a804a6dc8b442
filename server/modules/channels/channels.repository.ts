import type { Insertable, Updateable } from 'kysely';
import type { ChannelKind, Channel, DB } from '../../db/schema';
import type { Db } from '../../db/database';
import type { SecretBox } from '../../lib/secret-box';
import { notFound } from '../../lib/errors';
import type { ChannelSecrets, ChannelWithSecrets } from './adapters/channel-adapter';

/** A channel with its client's name (the administrators' view). */
export type ChannelRow = Channel & { clientName: string };

/** Channels with their secrets opened on demand; sealed values never leave this file unopened. */
export class ChannelsRepository {
  constructor(
    private readonly db: Db,
    private readonly secretBox: SecretBox,
  ) {}

  openSecrets(channel: Channel): ChannelWithSecrets {
    const secretValues = channel.secrets ? (this.secretBox.openJson(channel.secrets) as ChannelSecrets) : {};
    return { ...channel, secretValues };
  }

  sealSecrets(secrets: ChannelSecrets): string {
    return this.secretBox.sealJson(secrets);
  }

  async findById(id: string, db: Db = this.db): Promise<Channel | undefined> {
    return db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async getById(id: string, db: Db = this.db): Promise<Channel> {
    const channel = await this.findById(id, db);
    if (!channel) throw notFound('Channel');
    return channel;
  }

  async getWithSecrets(id: string, db: Db = this.db): Promise<ChannelWithSecrets> {
    return this.openSecrets(await this.getById(id, db));
  }

  async findByExternalIds(kind: ChannelKind, externalIds: readonly string[], db: Db = this.db): Promise<Channel[]> {
    if (externalIds.length === 0) return [];
    return db.selectFrom('channels').selectAll().where('kind', '=', kind).where('externalId', 'in', [...externalIds]).execute();
  }

  /**
   * Channels that accept customers' messages: active, of an active client (a deactivated client's
   * channels accept nothing, docs/client-dashboard.md).
   */
  #accepting(db: Db) {
    return db
      .selectFrom('channels')
      .innerJoin('clients', 'clients.id', 'channels.clientId')
      .selectAll('channels')
      .where('channels.status', '=', 'active')
      .where('clients.status', '=', 'active');
  }

  /** The kind's channels that accept messages (the webhooks' signature check). */
  async findActiveByKind(kind: ChannelKind, db: Db = this.db): Promise<Channel[]> {
    return this.#accepting(db).where('channels.kind', '=', kind).execute();
  }

  async findByVerifyTokenHash(kind: ChannelKind, hash: string): Promise<Channel | undefined> {
    return this.#accepting(this.db).where('channels.kind', '=', kind).where('channels.verifyTokenHash', '=', hash).executeTakeFirst();
  }

  /** The channel by id, or by kind and external id, when it accepts messages; else undefined. */
  async findAccepting(where: { id: string } | { kind: ChannelKind; externalId: string }, db: Db = this.db): Promise<Channel | undefined> {
    const q = this.#accepting(db);
    return ('id' in where ? q.where('channels.id', '=', where.id) : q.where('channels.kind', '=', where.kind).where('channels.externalId', '=', where.externalId)).executeTakeFirst();
  }

  #withClient(db: Db) {
    return db.selectFrom('channels').innerJoin('clients', 'clients.id', 'channels.clientId').selectAll('channels').select('clients.companyName as clientName');
  }

  /** Channels with their client's name, by client, then oldest first; optionally one client's. */
  async findRows(filter: { clientId?: string | undefined }, db: Db = this.db): Promise<ChannelRow[]> {
    let q = this.#withClient(db).orderBy('clients.companyName').orderBy('channels.createdAt').orderBy('channels.id');
    if (filter.clientId) q = q.where('channels.clientId', '=', filter.clientId);
    return q.execute();
  }

  async findRow(id: string, db: Db = this.db): Promise<ChannelRow | undefined> {
    return this.#withClient(db).where('channels.id', '=', id).executeTakeFirst();
  }

  async clientExists(clientId: string, db: Db = this.db): Promise<boolean> {
    const client = await db.selectFrom('clients').select('id').where('id', '=', clientId).executeTakeFirst();
    return client !== undefined;
  }

  /** A new channel (secrets already sealed); its id. */
  async insert(channel: Insertable<DB['channels']>, db: Db = this.db): Promise<string> {
    const { id } = await db.insertInto('channels').values(channel).returning('id').executeTakeFirstOrThrow();
    return id;
  }

  /** The channel, locked until the transaction `trx` ends. */
  async findByIdForUpdate(id: string, trx: Db): Promise<Channel | undefined> {
    return trx.selectFrom('channels').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
  }

  async update(id: string, changes: Updateable<DB['channels']>, db: Db = this.db): Promise<void> {
    await db.updateTable('channels').set(changes).where('id', '=', id).execute();
  }
}
