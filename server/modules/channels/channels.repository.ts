import type { ChannelKind, Channel } from '../../db/schema';
import type { Db } from '../../db/database';
import type { SecretBox } from '../../lib/secret-box';
import { notFound } from '../../lib/errors';
import type { ChannelSecrets, ChannelWithSecrets } from './adapters/channel-adapter';

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

  async findActiveByKind(kind: ChannelKind, db: Db = this.db): Promise<Channel[]> {
    return db.selectFrom('channels').selectAll().where('kind', '=', kind).where('status', '=', 'active').execute();
  }

  async findByVerifyTokenHash(kind: ChannelKind, hash: string): Promise<Channel | undefined> {
    return this.db
      .selectFrom('channels')
      .selectAll()
      .where('kind', '=', kind)
      .where('verifyTokenHash', '=', hash)
      .where('status', '=', 'active')
      .executeTakeFirst();
  }
}
