/**
 * Meta webhook deliveries for tests: the fixtures (test/fixtures/meta-payloads, several of them
 * partial) wrapped into full envelopes as Meta sends them, signed like Meta signs them, and a
 * channel whose ids match.
 */
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { sha256Hex } from '../../server/lib/crypto';
import type { TestApp } from './app';
import { createTestClient } from './messaging';

export const FIXTURES_DIR = path.resolve(import.meta.dirname, '../fixtures/meta-payloads');
export type MetaKind = 'whatsapp' | 'messenger' | 'instagram';

export function fixture<T extends object = Record<string, unknown>>(name: string): T {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES_DIR, name), 'utf8')) as T;
}

export function signature(body: string | Buffer, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}`;
}

/** A WhatsApp Cloud API delivery: each `value` in its own change of one entry, with the metadata Meta adds. */
export function whatsappDelivery(phoneNumberId: string, ...values: Record<string, unknown>[]) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: values.map((value) => ({
          value: { messaging_product: 'whatsapp', metadata: { display_phone_number: '15550783881', phone_number_id: phoneNumberId }, ...value },
          field: 'messages',
        })),
      },
    ],
  };
}

/** A Messenger (`page`) or Instagram delivery: one entry for the account with these messaging items. */
export function messagingDelivery(kind: 'messenger' | 'instagram', accountId: string, ...items: unknown[]) {
  return { object: kind === 'messenger' ? 'page' : 'instagram', entry: [{ id: accountId, time: Date.now(), messaging: items }] };
}

export interface MetaTestChannel {
  id: string;
  clientId: string;
  kind: MetaKind;
  externalId: string;
  appSecret: string;
  verifyToken: string;
}

/**
 * A Meta channel with these ids. A previous channel holding the same (kind, external id) — from an
 * earlier test on the same fixture ids — is renamed out of the way first.
 */
export async function createMetaChannel(
  app: TestApp,
  kind: MetaKind,
  externalId: string,
  options: { appSecret?: string; verifyToken?: string; clientId?: string } = {},
): Promise<MetaTestChannel> {
  const appSecret = options.appSecret ?? 'meta-app-secret-ü-1';
  const verifyToken = options.verifyToken ?? `verify-${Math.random().toString(36).slice(2)}`;
  await app.database.db
    .updateTable('channels')
    .set({ externalId: `old-${Math.random().toString(36).slice(2)}` })
    .where('kind', '=', kind)
    .where('externalId', '=', externalId)
    .execute();
  const clientId = options.clientId ?? (await createTestClient(app)).id;
  const row = await app.database.db
    .insertInto('channels')
    .values({
      clientId,
      kind,
      name: `${kind} test`,
      externalId,
      secrets: app.services.channelsRepository.sealSecrets({ accessToken: `token-${externalId}`, appSecret, verifyToken }),
      verifyTokenHash: sha256Hex(verifyToken),
      appSecretHash: sha256Hex(appSecret),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  app.services.webhooks.secrets.invalidate();
  return { id: row.id, clientId, kind, externalId, appSecret, verifyToken };
}

/** POSTs exactly these bytes, signed with `appSecret` (or with the given header). */
export function postDelivery(
  app: TestApp,
  kind: MetaKind,
  body: unknown,
  options: { appSecret?: string; signature?: string | null; contentType?: string } = {},
): Promise<LightMyRequestResponse> {
  const raw = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
  const header = options.signature === undefined ? signature(raw, options.appSecret ?? 'meta-app-secret-ü-1') : options.signature;
  return app.inject({
    method: 'POST',
    url: `/webhooks/${kind}`,
    headers: { 'content-type': options.contentType ?? 'application/json', ...(header === null ? {} : { 'x-hub-signature-256': header }) },
    payload: raw,
  });
}
