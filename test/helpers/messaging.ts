/** Test setup for the messaging core: clients and channels written straight to the database. */
import { sha256Hex } from '../../server/lib/crypto';
import type { ChannelKind } from '../../server/db/schema';
import type { ChannelSecrets } from '../../server/modules/channels/adapters/channel-adapter';
import type { TestApp } from './app';

export async function createTestClient(app: TestApp, companyName = `Client ${Math.random().toString(36).slice(2, 8)}`) {
  return app.database.db.insertInto('clients').values({ companyName }).returningAll().executeTakeFirstOrThrow();
}

export async function createTestChannel(
  app: TestApp,
  options: { clientId: string; kind: ChannelKind; externalId?: string | null; secrets?: ChannelSecrets; callbackUrl?: string },
) {
  const { clientId, kind } = options;
  const meta = kind === 'whatsapp' || kind === 'messenger' || kind === 'instagram';
  const secrets: ChannelSecrets =
    options.secrets ?? (meta ? { accessToken: 'test-access-token', appSecret: 'test-app-secret', verifyToken: 'test-verify-token' } : kind === 'api' ? { signingSecret: 'test-signing-secret' } : {});
  const externalId = options.externalId === undefined ? (kind === 'api' ? null : `ext-${Math.random().toString(36).slice(2, 10)}`) : options.externalId;
  return app.database.db
    .insertInto('channels')
    .values({
      clientId,
      kind,
      name: kind,
      externalId,
      callbackUrl: kind === 'api' ? (options.callbackUrl ?? 'http://127.0.0.1:9/callback') : null,
      secrets: Object.keys(secrets).length ? app.services.channelsRepository.sealSecrets(secrets) : null,
      verifyTokenHash: secrets.verifyToken ? sha256Hex(secrets.verifyToken) : null,
      appSecretHash: secrets.appSecret ? sha256Hex(secrets.appSecret) : null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}
