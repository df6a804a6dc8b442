import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientView } from '../../../common/api/channels';
import { createTestApp, signedInClient, type TestApp, type TestClient } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import { customerText, expectJson } from '../../../test/helpers/inbox';
import { createTestChannel } from '../../../test/helpers/messaging';

describe.each(ENGINES)('clients API (%s)', (engine) => {
  let app: TestApp;
  let admin: TestClient;

  beforeAll(async () => {
    app = await createTestApp(engine, { startJobs: false });
    ({ client: admin } = await signedInClient(app, 'admin'));
  });
  afterAll(async () => {
    await app.destroy();
  });

  it('creates a client (admins only), with counts from real data', async () => {
    const created = expectJson<ClientView>(
      await admin.post('/api/v1/clients', { companyName: '  Northwind Traders ', contactPerson: 'Nancy Davolio', email: ' Nancy@Northwind.example ', phone: '' }),
      201,
    );
    expect(created).toMatchObject({
      companyName: 'Northwind Traders',
      contactPerson: 'Nancy Davolio',
      email: 'nancy@northwind.example',
      phone: null,
      status: 'active',
      channelCount: 0,
      conversationCount: 0,
      userCount: 0,
      lastInteractionAt: null,
    });
    const channel = await createTestChannel(app, { clientId: created.id, kind: 'webchat' });
    await app.services.messaging.recordInbound(channel, customerText('v1', 'hello'));
    const user = await admin.post('/api/v1/users', { email: 'nancy.user@example.com', name: 'Nancy Davolio', password: 'Corr3ct!Horse#Battery', role: 'client', clientId: created.id });
    expect(expectJson<{ clientId: string }>(user, 201).clientId).toBe(created.id);

    const view = expectJson<ClientView>(await admin.get(`/api/v1/clients/${created.id}`), 200);
    expect(view).toMatchObject({ channelCount: 1, conversationCount: 1, userCount: 1, lastInteractionAt: expect.any(String) });
    expect(expectJson<{ clients: ClientView[] }>(await admin.get('/api/v1/clients'), 200).clients.map((c) => c.id)).toContain(created.id);

    const invalid = await admin.post('/api/v1/clients', { companyName: ' ', email: 'not-an-email' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().error.fields).toMatchObject({ companyName: 'Company name is required' });
    const { client: manager } = await signedInClient(app, 'manager');
    expect((await manager.post('/api/v1/clients', { companyName: 'Nope' })).statusCode).toBe(403);
    expect(expectJson<{ clients: ClientView[] }>(await manager.get('/api/v1/clients'), 200).clients.map((c) => c.id)).toContain(created.id);
  });

  it('changes only the fields given', async () => {
    const created = expectJson<ClientView>(await admin.post('/api/v1/clients', { companyName: 'Contoso', status: 'inactive', phone: '+1 555 0100' }), 201);
    const url = `/api/v1/clients/${created.id}`;
    expect(expectJson<ClientView>(await admin.patch(url, { contactPerson: 'Carol' }), 200)).toMatchObject({
      companyName: 'Contoso',
      contactPerson: 'Carol',
      status: 'inactive',
      phone: '+1 555 0100',
    });
    expect(expectJson<ClientView>(await admin.patch(url, { status: 'active', phone: '' }), 200)).toMatchObject({ status: 'active', phone: null });
    expect((await admin.patch(url, {})).statusCode).toBe(400);
    expect((await admin.patch(url, { status: 'archived' })).statusCode).toBe(400);
    expect((await admin.patch(`/api/v1/clients/${crypto.randomUUID()}`, { companyName: 'X' })).statusCode).toBe(404);
  });

  it('a client user sees only their own client', async () => {
    const mine = expectJson<ClientView>(await admin.post('/api/v1/clients', { companyName: 'Mine Ltd' }), 201);
    const theirs = expectJson<ClientView>(await admin.post('/api/v1/clients', { companyName: 'Theirs Ltd' }), 201);
    expectJson(await admin.post('/api/v1/users', { email: 'mine.user@example.com', name: 'Mine User', password: 'Corr3ct!Horse#Battery', role: 'client', clientId: mine.id }), 201);
    const user = app.client();
    await user.signIn('mine.user@example.com', 'Corr3ct!Horse#Battery');
    expect(expectJson<{ clients: ClientView[] }>(await user.get('/api/v1/clients'), 200).clients.map((c) => c.companyName)).toEqual(['Mine Ltd']);
    expect(expectJson<ClientView>(await user.get(`/api/v1/clients/${mine.id}`), 200).companyName).toBe('Mine Ltd');
    expect((await user.get(`/api/v1/clients/${theirs.id}`)).statusCode).toBe(404);
    expect((await user.patch(`/api/v1/clients/${mine.id}`, { companyName: 'Hijacked' })).statusCode).toBe(403);

    // A client user attached to no client sees none.
    const { client: loose } = await signedInClient(app, 'client');
    expect(expectJson<{ clients: ClientView[] }>(await loose.get('/api/v1/clients'), 200).clients).toEqual([]);
    const unknown = await admin.post('/api/v1/users', { email: 'x.user@example.com', name: 'X User', password: 'Corr3ct!Horse#Battery', role: 'client', clientId: crypto.randomUUID() });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.fields.clientId).toBe('Client not found');
  });
});
