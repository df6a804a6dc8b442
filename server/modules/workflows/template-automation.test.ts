/**
 * A template is how a business gets a working automation in one click (issue 13 §2), with the
 * real modules wired as server/app.ts wires them: assigning a template to a client creates that
 * client's automation (active, the template's workflow URL and triggers), which the client's users
 * then see and can run; a refused creation stores no assignment. Both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AutomationView } from '../../../common/api/automations';

type AutomationsResponse = { automations: AutomationView[] };
import type { ClientView } from '../../../common/api/channels';
import type { TemplateView } from '../../../common/api/workflows';
import { createTestApp, signedInClient, type TestApp, type TestClient } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import { expectJson, signedInClientUser } from '../../../test/helpers/inbox';

const HOOK = 'https://hooks.example.com/webhook/lead-intake';

describe.each(ENGINES)('assigning a template creates the client’s automation (%s)', (engine) => {
  let app: TestApp;
  let admin: TestClient;
  beforeAll(async () => {
    app = await createTestApp(engine, { startJobs: false });
    ({ client: admin } = await signedInClient(app, 'admin'));
  });
  afterAll(async () => {
    await app.destroy();
  });

  it('creates it active with the template’s URL and triggers, visible to that client only', async () => {
    const client = expectJson<ClientView>(await admin.post('/api/v1/clients', { companyName: `Bikes ${engine}` }), 201);
    const other = expectJson<ClientView>(await admin.post('/api/v1/clients', { companyName: `Cafe ${engine}` }), 201);
    const template = expectJson<TemplateView>(
      await admin.post('/api/v1/templates', { name: 'Lead intake', description: 'New leads to the CRM', type: 'n8n', workflowConfig: { webhookUrl: HOOK, triggers: ['lead.qualified'] } }),
      201,
    );
    const assigned = expectJson<TemplateView>(await admin.post(`/api/v1/templates/${template.id}/clients`, { clientId: client.id }), 201);
    expect(assigned.clientAssignments.map((a) => a.clientId)).toEqual([client.id]);

    const { client: owner } = await signedInClientUser(app, client.id);
    const mine = expectJson<AutomationsResponse>(await owner.get('/api/v1/automations'), 200).automations;
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ name: 'Lead intake', description: 'New leads to the CRM', workflow_url: HOOK, status: 'active', client_id: client.id });
    expect(mine[0]!.config).toMatchObject({ triggers: [{ event: 'lead.qualified' }], templateId: template.id });

    const { client: stranger } = await signedInClientUser(app, other.id);
    expect(expectJson<AutomationsResponse>(await stranger.get('/api/v1/automations'), 200).automations).toEqual([]);
    expect((await stranger.get(`/api/v1/automations/${mine[0]!.id}`)).statusCode).toBe(404);
  });

  it('stores no assignment when the automation cannot be created', async () => {
    const client = expectJson<ClientView>(await admin.post('/api/v1/clients', { companyName: `Gym ${engine}` }), 201);
    const template = expectJson<TemplateView>(
      await admin.post('/api/v1/templates', { name: 'Bookings', type: 'zapier', workflowConfig: { webhookUrl: HOOK, triggers: [] } }),
      201,
    );
    // The client disappears between the request and the creation: the assignment must not outlive it.
    await app.database.db.deleteFrom('clients').where('id', '=', client.id).execute();
    const refused = await admin.post(`/api/v1/templates/${template.id}/clients`, { clientId: client.id });
    expect(refused.statusCode).toBe(404);
    const rows = await app.database.db.selectFrom('templateClients').selectAll().where('templateId', '=', template.id).execute();
    expect(rows).toEqual([]);
    expect(await app.database.db.selectFrom('automations').select('id').where('clientId', '=', client.id).execute()).toEqual([]);
  });
});
