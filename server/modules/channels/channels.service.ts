/**
 * Channel management for administrators (and the `channels:create` command): connect a channel to
 * a client, show where the platform must send events, rotate the webhook verify token, test the
 * credentials, disable a channel, read an API channel's callback log.
 *
 * Secrets are write-only: sealed with the secrets key into `channels.secrets`, never returned.
 * A verify token or signing secret Parley generates (32 random bytes, base64url) is shown once, in
 * the answer that created it. `verify_token_hash` / `app_secret_hash` are sha256 hex, so Meta's
 * handshake and the webhook's app lookup need no decryption.
 */
import type { z } from 'zod';
import type { ChannelView, createChannelInput, updateChannelInput } from '../../../common/api/channels';
import { CHANNEL_KIND_LABEL } from '../../../common/messaging/channel-label';
import type { Db } from '../../db/database';
import type { ChannelKind } from '../../db/schema';
import { randomToken, sha256Hex } from '../../lib/crypto';
import { AppError, isUniqueViolation, notFound } from '../../lib/errors';
import type { ChannelAdapter, ChannelSecrets } from './adapters/channel-adapter';
import type { ChannelRow, ChannelsRepository } from './channels.repository';
import { ChannelDeliveriesRepository } from './channel-deliveries.repository';

export type CreateChannelCommand = z.output<typeof createChannelInput>;
export type UpdateChannelCommand = z.output<typeof updateChannelInput>;
export type CreatedChannel = ChannelView & { verifyToken?: string; signingSecret?: string };

const META_KINDS: ReadonlySet<ChannelKind> = new Set(['whatsapp', 'messenger', 'instagram']);
const TEST_TIMEOUT_MS = 10_000;

/** The input field that carries each kind's platform id (for 409 field messages). */
const EXTERNAL_ID_FIELD: Partial<Record<ChannelKind, { field: string; label: string }>> = {
  whatsapp: { field: 'phoneNumberId', label: 'phone number id' },
  messenger: { field: 'pageId', label: 'page id' },
  instagram: { field: 'accountId', label: 'Instagram account id' },
};

export interface ChannelsServiceDeps {
  db: Db;
  channels: ChannelsRepository;
  adapters: ReadonlyMap<ChannelKind, ChannelAdapter>;
  /** Parley's public origin, for webhook URLs and the embed snippet. */
  publicUrl: string;
  /**
   * Why a callback URL may not be saved (this server, a private or metadata address given as an IP
   * literal or `localhost`; server/lib/guarded-http.ts), or null. Names that resolve privately are
   * refused when the request connects.
   */
  checkOutboundUrl(url: string): string | null;
  /**
   * Called after a channel was created or changed, so caches of channel credentials in this
   * process (the webhook signature check) drop their copy at once: a disabled channel's inbound
   * stops now here, and within the caches' few seconds on other instances.
   */
  onChange?(channelId: string): void;
}

/** A refused URL's field message: the reason, and what an administrator can do about it. */
export function outboundFieldMessage(reason: string): string {
  return `${reason}. Enter a public address, or ask the operator to allow this host in OUTBOUND_ALLOWED_HOSTS.`;
}

export class ChannelsService {
  /** The delivery log's reads (its writer is the API adapter, over the same repository). */
  readonly #deliveries: ChannelDeliveriesRepository;

  constructor(private readonly deps: ChannelsServiceDeps) {
    this.#deliveries = new ChannelDeliveriesRepository(deps.db);
  }

  #toView(row: ChannelRow): ChannelView {
    const { publicUrl } = this.deps;
    const stored: ChannelSecrets = row.secrets ? this.deps.channels.openSecrets(row).secretValues : {};
    return {
      id: row.id,
      clientId: row.clientId,
      clientName: row.clientName,
      kind: row.kind,
      name: row.name,
      status: row.status,
      externalId: row.externalId,
      callbackUrl: row.callbackUrl,
      webhookUrl: META_KINDS.has(row.kind)
        ? `${publicUrl}/webhooks/${row.kind}`
        : row.kind === 'api'
          ? `${publicUrl}/api/v1/channels/${row.id}/messages`
          : null,
      embedSnippet:
        row.kind === 'webchat' && row.externalId ? `<script src="${publicUrl}/widget.js" data-widget-id="${row.externalId}" async></script>` : null,
      secrets: {
        accessToken: Boolean(stored.accessToken),
        appSecret: Boolean(stored.appSecret),
        verifyToken: Boolean(stored.verifyToken),
        signingSecret: Boolean(stored.signingSecret),
      },
      createdAt: row.createdAt.toISOString(),
    };
  }

  async findChannels(filter: { clientId?: string | undefined }): Promise<ChannelView[]> {
    return (await this.deps.channels.findRows(filter)).map((row) => this.#toView(row));
  }

  async getChannel(id: string, db: Db = this.deps.db): Promise<ChannelView> {
    const row = await this.deps.channels.findRow(id, db);
    if (!row) throw notFound('Channel');
    return this.#toView(row);
  }

  async createChannel(input: CreateChannelCommand): Promise<CreatedChannel> {
    if (!(await this.deps.channels.clientExists(input.clientId))) throw new AppError('VALIDATION_ERROR', 'Client not found', { fields: { clientId: 'Client not found' } });

    let externalId: string | null = null;
    let callbackUrl: string | null = null;
    let secrets: ChannelSecrets = {};
    const shown: { verifyToken?: string; signingSecret?: string } = {};
    switch (input.kind) {
      case 'whatsapp':
      case 'messenger':
      case 'instagram': {
        externalId = input.kind === 'whatsapp' ? input.phoneNumberId : input.kind === 'messenger' ? input.pageId : input.accountId;
        const verifyToken = input.verifyToken ?? randomToken();
        if (input.verifyToken === undefined) shown.verifyToken = verifyToken;
        secrets = { accessToken: input.accessToken, appSecret: input.appSecret, verifyToken };
        break;
      }
      case 'webchat':
        externalId = `w_${randomToken(12)}`;
        break;
      case 'api': {
        this.#checkCallbackUrl(input.callbackUrl);
        callbackUrl = input.callbackUrl;
        const signingSecret = input.signingSecret ?? randomToken();
        if (input.signingSecret === undefined) shown.signingSecret = signingSecret;
        secrets = { signingSecret };
        break;
      }
      default: {
        const unhandled: never = input;
        void unhandled;
      }
    }

    let id: string;
    try {
      id = await this.deps.channels.insert({
        clientId: input.clientId,
        kind: input.kind,
        name: input.name,
        externalId,
        callbackUrl,
        secrets: Object.keys(secrets).length > 0 ? this.deps.channels.sealSecrets(secrets) : null,
        verifyTokenHash: secrets.verifyToken ? sha256Hex(secrets.verifyToken) : null,
        appSecretHash: secrets.appSecret ? sha256Hex(secrets.appSecret) : null,
      });
    } catch (error) {
      const field = EXTERNAL_ID_FIELD[input.kind];
      if (field && isUniqueViolation(error)) {
        const message = `This ${field.label} is already connected to a ${CHANNEL_KIND_LABEL[input.kind]} channel`;
        throw new AppError('CONFLICT', message, { fields: { [field.field]: message }, details: { reason: 'duplicate_channel' }, cause: error });
      }
      throw error;
    }
    this.deps.onChange?.(id);
    return { ...(await this.getChannel(id)), ...shown };
  }

  /** A website chat for a client, created as part of the caller's transaction `db` (the demo widget). */
  async createWebchat(clientId: string, name: string, db: Db): Promise<{ id: string; externalId: string }> {
    const externalId = `w_${randomToken(12)}`;
    const id = await this.deps.channels.insert({ clientId, kind: 'webchat', name, externalId }, db);
    return { id, externalId };
  }

  #checkCallbackUrl(url: string): void {
    const refused = this.deps.checkOutboundUrl(url);
    if (refused) throw new AppError('VALIDATION_ERROR', refused, { fields: { callbackUrl: outboundFieldMessage(refused) } });
  }

  /** Name, status (disabled: no sends, no inbound), replaced credentials, the API callback URL. */
  async updateChannel(id: string, input: UpdateChannelCommand): Promise<ChannelView> {
    const view = await this.deps.db.transaction().execute(async (trx) => {
      const channel = await this.deps.channels.findByIdForUpdate(id, trx);
      if (!channel) throw notFound('Channel');
      const meta = META_KINDS.has(channel.kind);
      const fields: Record<string, string> = {};
      if (!meta && input.accessToken !== undefined) fields.accessToken = 'Only WhatsApp, Messenger and Instagram channels have an access token';
      if (!meta && input.appSecret !== undefined) fields.appSecret = 'Only WhatsApp, Messenger and Instagram channels have an app secret';
      if (channel.kind !== 'api' && input.callbackUrl !== undefined) fields.callbackUrl = 'Only custom-platform (API) channels have a callback URL';
      const [first] = Object.values(fields);
      if (first) throw new AppError('VALIDATION_ERROR', first, { fields });
      if (input.callbackUrl !== undefined) this.#checkCallbackUrl(input.callbackUrl);

      let sealed: { secrets?: string; appSecretHash?: string } = {};
      if (input.accessToken !== undefined || input.appSecret !== undefined) {
        const current = this.deps.channels.openSecrets(channel).secretValues;
        const next: ChannelSecrets = {
          ...current,
          ...(input.accessToken !== undefined ? { accessToken: input.accessToken } : {}),
          ...(input.appSecret !== undefined ? { appSecret: input.appSecret } : {}),
        };
        sealed = { secrets: this.deps.channels.sealSecrets(next), ...(next.appSecret ? { appSecretHash: sha256Hex(next.appSecret) } : {}) };
      }
      await this.deps.channels.update(
        id,
        {
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.status !== undefined ? { status: input.status } : {}),
          ...(input.callbackUrl !== undefined ? { callbackUrl: input.callbackUrl } : {}),
          ...sealed,
          updatedAt: new Date(),
        },
        trx,
      );
      return this.getChannel(id, trx);
    });
    this.deps.onChange?.(id);
    return view;
  }

  /** A new webhook verify token for a Meta channel, shown once; the old one stops working. */
  async rotateVerifyToken(id: string): Promise<CreatedChannel> {
    const verifyToken = randomToken();
    await this.deps.db.transaction().execute(async (trx) => {
      const channel = await this.deps.channels.findByIdForUpdate(id, trx);
      if (!channel) throw notFound('Channel');
      if (!META_KINDS.has(channel.kind)) {
        throw new AppError('BAD_REQUEST', 'Only WhatsApp, Messenger and Instagram channels have a webhook verify token', { details: { reason: 'no_verify_token' } });
      }
      const secrets = { ...this.deps.channels.openSecrets(channel).secretValues, verifyToken };
      await this.deps.channels.update(id, { secrets: this.deps.channels.sealSecrets(secrets), verifyTokenHash: sha256Hex(verifyToken), updatedAt: new Date() }, trx);
    });
    this.deps.onChange?.(id);
    return { ...(await this.getChannel(id)), verifyToken };
  }

  /** Checks the stored credentials with the platform, through the channel's adapter. */
  async testChannel(id: string): Promise<{ ok: boolean; message: string }> {
    const channel = await this.deps.channels.getWithSecrets(id);
    const adapter = this.deps.adapters.get(channel.kind);
    if (!adapter) return { ok: false, message: `Checking ${CHANNEL_KIND_LABEL[channel.kind]} credentials is not available on this server yet.` };
    try {
      return await adapter.testCredentials(channel, AbortSignal.timeout(TEST_TIMEOUT_MS));
    } catch (error) {
      const reason = error instanceof Error && error.name === 'TimeoutError' ? 'no answer within 10 seconds' : error instanceof Error ? error.message : String(error);
      return { ok: false, message: `Could not check the ${CHANNEL_KIND_LABEL[channel.kind]} credentials: ${reason.slice(0, 300)}` };
    }
  }

  /** The latest callback attempts of an API channel (empty for other kinds), newest first. */
  async findDeliveries(id: string, limit = 100) {
    await this.deps.channels.getById(id);
    return this.#deliveries.findChannelDeliveries(id, limit);
  }
}
