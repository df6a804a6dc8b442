import type { Db } from '../../db/database';
import type { Channel, ChannelKind } from '../../db/schema';
import type { ChannelWithSecrets } from './adapters/channel-adapter';
import type { ChannelsRepository } from './channels.repository';

/**
 * Channels as other modules look them up — the webhooks (by platform id, by verify token, with
 * their secrets opened to check a signature) and the widget (by widget id). Read-only: channels
 * are created and changed through ChannelsService.
 */
export class ChannelDirectory {
  constructor(private readonly channels: ChannelsRepository) {}

  findById(id: string, db?: Db): Promise<Channel | undefined> {
    return this.channels.findById(id, db);
  }

  findByExternalIds(kind: ChannelKind, externalIds: readonly string[], db?: Db): Promise<Channel[]> {
    return this.channels.findByExternalIds(kind, externalIds, db);
  }

  /** The kind's channels that accept messages: active, of an active client. */
  findActiveByKind(kind: ChannelKind, db?: Db): Promise<Channel[]> {
    return this.channels.findActiveByKind(kind, db);
  }

  /**
   * The channel when it accepts customers' messages — it is active and so is its client (a
   * deactivated client's channels answer as disabled ones do); undefined otherwise.
   */
  findAccepting(where: { id: string } | { kind: ChannelKind; externalId: string }, db?: Db): Promise<Channel | undefined> {
    return this.channels.findAccepting(where, db);
  }

  findByVerifyTokenHash(kind: ChannelKind, hash: string): Promise<Channel | undefined> {
    return this.channels.findByVerifyTokenHash(kind, hash);
  }

  /** The channel with its sealed secrets opened (never logged, never sent to a browser). */
  openSecrets(channel: Channel): ChannelWithSecrets {
    return this.channels.openSecrets(channel);
  }
}
