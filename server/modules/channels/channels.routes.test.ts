import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelView } from '../../../common/api/channels';
import { createTestApp, signedInClient, TEST_PUBLIC_URL, type TestApp, type TestClient } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import { ALLOW_LOOPBACK_FAKES } from '../../../test/helpers/outbound';
import { customerText, expectJson } from '../../../test/helpers/inbox';
import { createTestClient } from '../../../test/helpers/messaging';
import { hmacSha256Hex, sha256Hex } from '../../lib/crypto';
import { checkOutboundUrl, parseOutboundAllowlist } from '../../lib/outbound-address';
import { SecretBox } from '../../lib/secret-box';
import type { ChannelAdapter } from './adapters/channel-adapter';
import { ChannelsRepository } from './channels.repository';
import { ChannelsService } from './channels.service';

type Created = ChannelView & { verifyToken?: string; signingSecret?: string };

const ACCESS_TOKEN = 'EAAG-access-token-4f9c2d';
const APP_SECRET = 'app-secret-7b1e0a55';
const VERIFY_TOKEN = 'verify-token-93ad11';

describe.each(ENGINES)('channel management API (%s)', (engine) => {
  let app: TestApp;
  let admin: TestClient;
  let manager: TestClient;

  beforeAll(async () => {
    app = await createTestApp(engine, { startJobs: false, env: ALLOW_LOOPBACK_FAKES });
    ({ client: admin } = await signedInClient(app, 'admin'));
    ({ client: manager } = await signedInClient(app, 'manager'));
  });
  afterAll(async () => {
    await app.destroy();
  });

  /** The channel's row exactly as stored, as one string. */
  async function storedRow(id: string): Promise<string> {
    return JSON.stringify(await app.database.db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
  }

  it('connects a WhatsApp channel: webhook URL, secrets sealed at rest and never returned, hashes for the handshake', async () => {
    const client = await createTestClient(app, 'Wa Shop');
    const response = await admin.post('/api/v1/channels', {
      kind: 'whatsapp',
      clientId: client.id,
      phoneNumberId: '106540352242922',
      accessToken: ACCESS_TOKEN,
      appSecret: APP_SECRET,
      verifyToken: VERIFY_TOKEN,
    });
    const created = expectJson<Created>(response, 201);
    expect(created).toMatchObject({
      clientId: client.id,
      clientName: 'Wa Shop',
      kind: 'whatsapp',
      name: 'WhatsApp',
      status: 'active',
      externalId: '106540352242922',
      webhookUrl: `${TEST_PUBLIC_URL}/webhooks/whatsapp`,
      embedSnippet: null,
      secrets: { accessToken: true, appSecret: true, verifyToken: true, signingSecret: false },
    });
    // The admin typed the verify token: it is not echoed.
    expect(created.verifyToken).toBeUndefined();
    for (const secret of [ACCESS_TOKEN, APP_SECRET, VERIFY_TOKEN]) {
      expect(response.body).not.toContain(secret);
      expect(await storedRow(created.id)).not.toContain(secret);
    }
    const row = await app.database.db.selectFrom('channels').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row.verifyTokenHash).toBe(sha256Hex(VERIFY_TOKEN));
    expect(row.appSecretHash).toBe(sha256Hex(APP_SECRET));
    expect(app.services.channelsRepository.openSecrets(row).secretValues).toEqual({ accessToken: ACCESS_TOKEN, appSecret: APP_SECRET, verifyToken: VERIFY_TOKEN });

    const listed = await admin.get(`/api/v1/channels?clientId=${client.id}`);
    expect(expectJson<{ channels: ChannelView[] }>(listed, 200).channels).toEqual([expect.objectContaining({ id: created.id, webhookUrl: created.webhookUrl })]);
    for (const secret of [ACCESS_TOKEN, APP_SECRET, VERIFY_TOKEN]) expect(listed.body).not.toContain(secret);
    // Managers may see what is connected, never change it.
    expect(expectJson<{ channels: ChannelView[] }>(await manager.get(`/api/v1/channels?clientId=${client.id}`), 200).channels).toHaveLength(1);
    expect((await manager.post('/api/v1/channels', { kind: 'webchat', clientId: client.id })).statusCode).toBe(403);
  });

  it('generates the verify token when omitted and shows it once; rotating replaces it', async () => {
    const client = await createTestClient(app);
    const created = expectJson<Created>(
      await admin.post('/api/v1/channels', { kind: 'messenger', clientId: client.id, name: 'FB Page', pageId: '100200300', accessToken: ACCESS_TOKEN, appSecret: APP_SECRET }),
      201,
    );
    expect(created).toMatchObject({ kind: 'messenger', name: 'FB Page', externalId: '100200300', webhookUrl: `${TEST_PUBLIC_URL}/webhooks/messenger` });
    expect(created.verifyToken).toMatch(/^[A-Za-z0-9_-]{43}$/u); // 32 random bytes, base64url
    expect(await storedRow(created.id)).not.toContain(created.verifyToken);
    const listed = await admin.get(`/api/v1/channels?clientId=${client.id}`);
    expect(listed.body).not.toContain(created.verifyToken);

    const rotated = expectJson<Created>(await admin.post(`/api/v1/channels/${created.id}/rotate-verify-token`, {}), 200);
    expect(rotated.verifyToken).toMatch(/^[A-Za-z0-9_-]{43}$/u);
    expect(rotated.verifyToken).not.toBe(created.verifyToken);
    expect((await app.services.channelsRepository.findByVerifyTokenHash('messenger', sha256Hex(rotated.verifyToken!)))?.id).toBe(created.id);
    expect(await app.services.channelsRepository.findByVerifyTokenHash('messenger', sha256Hex(created.verifyToken!))).toBeUndefined();
    // The other secrets survive the rotation.
    expect((await app.services.channelsRepository.getWithSecrets(created.id)).secretValues).toMatchObject({ accessToken: ACCESS_TOKEN, appSecret: APP_SECRET });
  });

  it('connects Instagram, website chat (widget id and embed snippet) and the API channel (signing secret shown once)', async () => {
    const client = await createTestClient(app);
    const ig = expectJson<Created>(
      await admin.post('/api/v1/channels', { kind: 'instagram', clientId: client.id, accountId: '17841400000000', accessToken: ACCESS_TOKEN, appSecret: APP_SECRET }),
      201,
    );
    expect(ig).toMatchObject({ externalId: '17841400000000', webhookUrl: `${TEST_PUBLIC_URL}/webhooks/instagram` });

    const web = expectJson<Created>(await admin.post('/api/v1/channels', { kind: 'webchat', clientId: client.id }), 201);
    expect(web.externalId).toMatch(/^w_[A-Za-z0-9_-]{16}$/u);
    expect(web).toMatchObject({
      name: 'Website chat',
      webhookUrl: null,
      embedSnippet: `<script src="${TEST_PUBLIC_URL}/widget.js" data-widget-id="${web.externalId}" async></script>`,
      secrets: { accessToken: false, appSecret: false, verifyToken: false, signingSecret: false },
    });

    const api = expectJson<Created>(await admin.post('/api/v1/channels', { kind: 'api', clientId: client.id, callbackUrl: 'https://crm.example/parley' }), 201);
    expect(api).toMatchObject({
      externalId: null,
      callbackUrl: 'https://crm.example/parley',
      webhookUrl: `${TEST_PUBLIC_URL}/api/v1/channels/${api.id}/messages`,
      secrets: { signingSecret: true },
    });
    expect(api.signingSecret).toMatch(/^[A-Za-z0-9_-]{43}$/u);
    expect(await storedRow(api.id)).not.toContain(api.signingSecret);
    const own = expectJson<Created>(
      await admin.post('/api/v1/channels', { kind: 'api', clientId: client.id, callbackUrl: 'http://127.0.0.1:9/cb', signingSecret: 'my-own-signing-secret' }),
      201,
    );
    expect(own.signingSecret).toBeUndefined();

    const bad = await admin.post('/api/v1/channels', { kind: 'api', clientId: client.id, callbackUrl: 'ftp://x.example' });
    expect(bad.json().error.fields.callbackUrl).toBe('Please enter an http(s) callback URL');
    expect((await admin.post('/api/v1/channels', { kind: 'telegram', clientId: client.id })).statusCode).toBe(400);
    const noClient = await admin.post('/api/v1/channels', { kind: 'webchat', clientId: crypto.randomUUID() });
    expect(noClient.statusCode).toBe(400);
    expect(noClient.json().error.fields.clientId).toBe('Client not found');
  });

  it('refuses a phone number id or page id that is already connected, naming the field', async () => {
    const client = await createTestClient(app);
    const body = { kind: 'whatsapp', clientId: client.id, phoneNumberId: '555000111', accessToken: ACCESS_TOKEN, appSecret: APP_SECRET };
    expectJson(await admin.post('/api/v1/channels', body), 201);
    const duplicate = await admin.post('/api/v1/channels', { ...body, clientId: (await createTestClient(app)).id });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().error.fields.phoneNumberId).toBe('This phone number id is already connected to a WhatsApp channel');
    const page = { kind: 'messenger', clientId: client.id, pageId: '555000111', accessToken: ACCESS_TOKEN, appSecret: APP_SECRET };
    expectJson(await admin.post('/api/v1/channels', page), 201); // another platform may use the same number
    expect((await admin.post('/api/v1/channels', page)).json().error.fields.pageId).toMatch(/already connected/u);
  });

  it('renames, replaces credentials and disables a channel; a disabled channel sends nothing', async () => {
    const client = await createTestClient(app);
    const wa = expectJson<Created>(
      await admin.post('/api/v1/channels', { kind: 'whatsapp', clientId: client.id, phoneNumberId: '777000222', accessToken: ACCESS_TOKEN, appSecret: APP_SECRET }),
      201,
    );
    const url = `/api/v1/channels/${wa.id}`;
    const renamed = await admin.patch(url, { name: 'Support line', accessToken: 'EAAG-new-token-123456', appSecret: 'new-app-secret-999' });
    expect(expectJson<ChannelView>(renamed, 200)).toMatchObject({ name: 'Support line', status: 'active' });
    expect(renamed.body).not.toContain('new-token');
    const secrets = (await app.services.channelsRepository.getWithSecrets(wa.id)).secretValues;
    expect(secrets).toMatchObject({ accessToken: 'EAAG-new-token-123456', appSecret: 'new-app-secret-999' });
    expect(secrets.verifyToken).toBeDefined();
    expect((await app.database.db.selectFrom('channels').select('appSecretHash').where('id', '=', wa.id).executeTakeFirstOrThrow()).appSecretHash).toBe(
      sha256Hex('new-app-secret-999'),
    );

    const channel = await app.services.channelsRepository.getById(wa.id);
    const { conversationId } = await app.services.messaging.recordInbound(channel, customerText('4915100000', 'hi'));
    expect(expectJson<ChannelView>(await admin.patch(url, { status: 'disabled' }), 200).status).toBe('disabled');
    const refused = await admin.post(`/api/v1/conversations/${conversationId}/messages`, { text: 'hello' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.details.reason).toBe('channel_disabled');
    expect(expectJson<ChannelView>(await admin.patch(url, { status: 'active' }), 200).status).toBe('active');
    expect((await admin.post(`/api/v1/conversations/${conversationId}/messages`, { text: 'hello' })).statusCode).toBe(201);

    expect((await admin.patch(url, { callbackUrl: 'https://x.example' })).json().error.fields.callbackUrl).toMatch(/Only custom-platform/u);
    expect((await admin.patch(url, {})).statusCode).toBe(400);
    expect((await admin.patch(`/api/v1/channels/${crypto.randomUUID()}`, { name: 'x' })).statusCode).toBe(404);
    const web = expectJson<Created>(await admin.post('/api/v1/channels', { kind: 'webchat', clientId: client.id }), 201);
    expect((await admin.patch(`/api/v1/channels/${web.id}`, { accessToken: 'EAAG-token-123456' })).json().error.fields.accessToken).toMatch(/Only WhatsApp/u);
    expect((await admin.post(`/api/v1/channels/${web.id}/rotate-verify-token`, {})).statusCode).toBe(400);
    expect((await admin.post(`/api/v1/channels/${crypto.randomUUID()}/rotate-verify-token`, {})).statusCode).toBe(404);
  });

  it('a disabled WhatsApp channel stops accepting webhook deliveries at once, and accepts them again when enabled', async () => {
    const client = await createTestClient(app);
    const appSecret = 'webhook-app-secret-for-disable';
    const wa = expectJson<Created>(
      await admin.post('/api/v1/channels', { kind: 'whatsapp', clientId: client.id, phoneNumberId: '444000555', accessToken: ACCESS_TOKEN, appSecret }),
      201,
    );
    const body = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [{ id: 'waba-1', changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata: { phone_number_id: '444000555' }, statuses: [] } }] }],
    });
    const deliver = () =>
      app.inject({
        method: 'POST',
        url: '/webhooks/whatsapp',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': `sha256=${hmacSha256Hex(appSecret, body)}` },
        payload: body,
      });
    expect((await deliver()).statusCode).toBe(200);
    expectJson(await admin.patch(`/api/v1/channels/${wa.id}`, { status: 'disabled' }), 200);
    expect((await deliver()).statusCode).toBe(401);
    expectJson(await admin.patch(`/api/v1/channels/${wa.id}`, { status: 'active' }), 200);
    expect((await deliver()).statusCode).toBe(200);
  });

  it("tests credentials through the channel's adapter, and lists an API channel's callback attempts", async () => {
    const client = await createTestClient(app);
    const web = expectJson<Created>(await admin.post('/api/v1/channels', { kind: 'webchat', clientId: client.id }), 201);
    expect(expectJson(await admin.post(`/api/v1/channels/${web.id}/test`, {}), 200)).toEqual({ ok: true, message: 'Website chat needs no credentials.' });
    expect((await admin.post(`/api/v1/channels/${crypto.randomUUID()}/test`, {})).statusCode).toBe(404);

    const api = expectJson<Created>(await admin.post('/api/v1/channels', { kind: 'api', clientId: client.id, callbackUrl: 'http://127.0.0.1:9/cb' }), 201);
    await app.database.db
      .insertInto('channelDeliveries')
      .values([
        { channelId: api.id, attempt: 1, url: 'http://127.0.0.1:9/cb', error: 'ECONNREFUSED', durationMs: 3 },
        { channelId: api.id, attempt: 2, url: 'http://127.0.0.1:9/cb', statusCode: 200, responseBody: 'ok', durationMs: 12 },
      ])
      .execute();
    const { deliveries } = expectJson<{ deliveries: { attempt: number; statusCode: number | null; error: string | null }[] }>(
      await admin.get(`/api/v1/channels/${api.id}/deliveries`),
      200,
    );
    expect(deliveries.map((d) => [d.attempt, d.statusCode, d.error])).toEqual([
      [2, 200, null],
      [1, null, 'ECONNREFUSED'],
    ]);
    expect(expectJson(await admin.get(`/api/v1/channels/${web.id}/deliveries`), 200)).toEqual({ deliveries: [] });
  });

  it('answers a clear message when no adapter can check a platform, or the check fails', async () => {
    const client = await createTestClient(app);
    const repository = new ChannelsRepository(app.database.db, new SecretBox(Buffer.alloc(32, 7)));
    const throwing: ChannelAdapter = {
      kind: 'api',
      sendText: () => Promise.reject(new Error('unused')),
      testCredentials: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:9')),
    };
    const changed: string[] = [];
    const service = new ChannelsService({
      db: app.database.db,
      channels: repository,
      adapters: new Map([['api', throwing]]),
      publicUrl: TEST_PUBLIC_URL,
      checkOutboundUrl: (url) => checkOutboundUrl(url, parseOutboundAllowlist(ALLOW_LOOPBACK_FAKES.OUTBOUND_ALLOWED_HOSTS)),
      onChange: (id) => changed.push(id),
    });
    const wa = await service.createChannel({ kind: 'whatsapp', clientId: client.id, name: 'WhatsApp', phoneNumberId: '888000333', accessToken: ACCESS_TOKEN, appSecret: APP_SECRET });
    expect(await service.testChannel(wa.id)).toEqual({ ok: false, message: 'Checking WhatsApp credentials is not available on this server yet.' });
    const api = await service.createChannel({ kind: 'api', clientId: client.id, name: 'CRM', callbackUrl: 'http://127.0.0.1:9/cb' });
    expect(await service.testChannel(api.id)).toEqual({ ok: false, message: 'Could not check the Custom platform credentials: connect ECONNREFUSED 127.0.0.1:9' });
    await service.updateChannel(api.id, { status: 'disabled' });
    await service.rotateVerifyToken(wa.id);
    expect(changed).toEqual([wa.id, api.id, api.id, wa.id]);
  });
});
