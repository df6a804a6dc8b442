/**
 * The messaging module's SQL for contacts and for opening their conversations (outside the hot
 * path's `parley_record_inbound`): echoes, the widget's names, the profile job, a business writing
 * first. MessagingService decides; these only read and write. Methods that run in the caller's
 * transaction take it as `db`.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import type { ChannelKind, ConversationStatus } from '../../db/schema';

export class ContactsRepository {
  constructor(private readonly db: Db) {}

  /**
   * The contact on a channel, created or renamed (a name or picture the platform does not send
   * stays); `inserted` when it is new.
   */
  async upsert(
    db: Db,
    channel: { id: string; clientId: string },
    contact: { externalId: string; name: string | null; avatarUrl: string | null },
    now: Date,
  ): Promise<{ id: string; inserted: boolean }> {
    return db
      .insertInto('contacts')
      .values({
        clientId: channel.clientId,
        channelId: channel.id,
        externalId: contact.externalId,
        name: contact.name,
        avatarUrl: contact.avatarUrl,
      })
      .onConflict((oc) =>
        oc.columns(['channelId', 'externalId']).doUpdateSet({
          name: sql`coalesce(excluded.name, contacts.name)`,
          avatarUrl: sql`coalesce(excluded.avatar_url, contacts.avatar_url)`,
          updatedAt: now,
        }),
      )
      .returning(['id', sql<boolean>`xmax = 0`.as('inserted')])
      .executeTakeFirstOrThrow();
  }

  /** The contact created with `name`, or renamed. */
  async upsertName(db: Db, channel: { id: string; clientId: string }, externalId: string, name: string, now: Date): Promise<{ id: string; inserted: boolean }> {
    return db
      .insertInto('contacts')
      .values({ clientId: channel.clientId, channelId: channel.id, externalId, name })
      .onConflict((oc) => oc.columns(['channelId', 'externalId']).doUpdateSet({ name, updatedAt: now }))
      .returning(['id', sql<boolean>`xmax = 0`.as('inserted')])
      .executeTakeFirstOrThrow();
  }

  async findById(contactId: string): Promise<{ id: string; channelId: string; externalId: string; name: string | null } | undefined> {
    return this.db.selectFrom('contacts').select(['id', 'channelId', 'externalId', 'name']).where('id', '=', contactId).executeTakeFirst();
  }

  async findWithChannelKind(
    db: Db,
    contactId: string,
  ): Promise<{ id: string; clientId: string; channelId: string; name: string | null; kind: ChannelKind } | undefined> {
    return db
      .selectFrom('contacts')
      .innerJoin('channels', 'channels.id', 'contacts.channelId')
      .select(['contacts.id', 'contacts.clientId', 'contacts.channelId', 'contacts.name', 'channels.kind'])
      .where('contacts.id', '=', contactId)
      .executeTakeFirst();
  }

  /**
   * A platform's profile: the name where the contact has none, the picture where it is given;
   * undefined when that changes nothing.
   */
  async updateProfile(db: Db, contactId: string, profile: { name: string | null; avatarUrl: string | null }, now: Date): Promise<{ id: string; clientId: string } | undefined> {
    return db
      .updateTable('contacts')
      .set({
        name: sql<string | null>`coalesce(nullif(btrim(name), ''), ${profile.name})`,
        avatarUrl: sql<string | null>`coalesce(${profile.avatarUrl}, avatar_url)`,
        updatedAt: now,
      })
      .where('id', '=', contactId)
      .where(
        sql<boolean>`((nullif(btrim(name), '') is null and ${profile.name}::text is not null) or (${profile.avatarUrl}::text is not null and avatar_url is distinct from ${profile.avatarUrl}::text))`,
      )
      .returning(['id', 'clientId'])
      .executeTakeFirst();
  }

  // ---- The contact's conversation ----

  async conversationsOf(db: Db, contactId: string): Promise<{ id: string; status: ConversationStatus }[]> {
    return db.selectFrom('conversations').select(['id', 'status']).where('contactId', '=', contactId).execute();
  }

  async findConversationId(db: Db, contactId: string): Promise<{ id: string } | undefined> {
    return db.selectFrom('conversations').select('id').where('contactId', '=', contactId).executeTakeFirst();
  }

  async getConversationId(db: Db, contactId: string): Promise<{ id: string }> {
    return db.selectFrom('conversations').select('id').where('contactId', '=', contactId).executeTakeFirstOrThrow();
  }

  /** The contact's conversation, created; undefined when it already has one. */
  async insertConversation(
    db: Db,
    conversation: { clientId: string; channelId: string; contactId: string; title: string | null },
  ): Promise<{ id: string } | undefined> {
    const { clientId, channelId, contactId, title } = conversation;
    return db
      .insertInto('conversations')
      .values({ clientId, channelId, contactId, title })
      .onConflict((oc) => oc.column('contactId').doNothing())
      .returning('id')
      .executeTakeFirst();
  }
}
