/**
 * Zapier, faked on loopback (issue 13 §7): a catch hook that records requests and answers as
 * Zapier's does. An admin registers the zap, makes a template from its hook, assigns the template
 * to a client (which creates the client's automation); the client's user clicks Run and the catch
 * hook receives the trigger, signed with the automation's secret. Both engines, real wiring.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AutomationView, CreatedAutomation, ExecutionView } from '../../../common/api/automations';
import type { TemplateView, WorkflowView } from '../../../common/api/workflows';
import { createTestApp, signedInClient, type TestApp, type TestClient } from '../../../test/helpers/app';
import { startCallbackServer, type CallbackServer, type ReceivedCallback } from '../../../test/helpers/callback-server';
import { ENGINES } from '../../../test/helpers/database';
import { expectJson, signedInClientUser } from '../../../test/helpers/inbox';
import { createTestClient } from '../../../test/helpers/messaging';
import { ALLOW_LOOPBACK_FAKES } from '../../../test/helpers/outbound';

/** What a Zapier catch hook answers to a POST. */
const ZAPIER_ANSWER = JSON.stringify({ attempt: '0191e3f5-5d1c-7b8a', id: '0191e3f5-5d1c-7b8a-9c2e', request_id: '0191e3f5-5d1c-7b8a-9c2e-aa', status: 'success' });

function signatureOk(received: ReceivedCallback, secret: string): boolean {
  const timestamp = String(received.headers['x-parley-timestamp']);
  const expected = createHmac('sha256', secret).update(Buffer.concat([Buffer.from(`${timestamp}.`), received.body])).digest('hex');
  return received.headers['x-parley-signature'] === `sha256=${expected}`;
}

describe.each(ENGINES)('a zap, its template and a client’s automation, run against a fake Zapier catch hook (%s)', (engine) => {
  let app: TestApp;
  let admin: TestClient;
  let clientUser: TestClient;
  let business: { id: string };
  let catchHook: CallbackServer;

  beforeAll(async () => {
    app = await createTestApp(engine, { env: ALLOW_LOOPBACK_FAKES });
    ({ client: admin } = await signedInClient(app, 'admin'));
    business = await createTestClient(app, 'Zap Bakery');
    ({ client: clientUser } = await signedInClientUser(app, business.id));
    catchHook = await startCallbackServer();
    catchHook.script({ status: 200, body: ZAPIER_ANSWER });
  });
  afterAll(async () => {
    await app.destroy();
    await catchHook.close();
  });

  it('Run by the client’s user reaches the catch hook, signed with the automation’s secret', async () => {
    const hookUrl = `${catchHook.url}/hooks/catch/123456/abcdef/`;
    const zap = expectJson<WorkflowView>(
      await admin.post('/api/v1/workflows', { kind: 'zapier', name: 'New lead to Sheets', description: 'Catch hook', webhookUrl: hookUrl, appIntegrations: ['Google Sheets'] }),
      201,
    );
    expect(zap).toMatchObject({ kind: 'zapier', status: 'draft', appIntegrations: ['Google Sheets'] });
    expect(expectJson<WorkflowView>(await admin.post(`/api/v1/workflows/${zap.id}/toggle-status`), 200).status).toBe('active');

    const template = expectJson<TemplateView>(
      await admin.post('/api/v1/templates', { name: 'Lead to Sheets', description: 'From the zap', type: 'zapier', workflowConfig: { webhookUrl: zap.webhookUrl, triggers: ['lead.qualified'] } }),
      201,
    );
    const assigned = expectJson<TemplateView>(await admin.post(`/api/v1/templates/${template.id}/clients`, { clientId: business.id }), 201);
    const automationId = assigned.clientAssignments[0]!.automationId!;

    // The client's user sees it, active, with the zap's hook.
    const mine = expectJson<{ automations: AutomationView[] }>(await clientUser.get('/api/v1/automations'), 200).automations;
    expect(mine.map((a) => [a.id, a.status, a.workflow_url, a.client_id])).toEqual([[automationId, 'active', hookUrl, business.id]]);

    // The signing secret is shown when it is made (here by the admin, as the Zapier filter step would need it).
    const { signing_secret: secret } = expectJson<CreatedAutomation>(await admin.post(`/api/v1/automations/${automationId}/rotate-secret`), 200);

    const run = expectJson<ExecutionView>(await clientUser.post(`/api/v1/automations/${automationId}/run`), 201);
    const until = Date.now() + 8_000;
    while (catchHook.received.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
    expect(catchHook.received).toHaveLength(1);
    const received = catchHook.received[0]!;
    expect(signatureOk(received, secret)).toBe(true);
    expect(signatureOk(received, 'another-secret')).toBe(false);
    expect(received.headers['content-type']).toMatch(/^application\/json/u);
    const body = JSON.parse(received.body.toString('utf8')) as { execution_id: string; client_id: string; automation_config: unknown; callback: { token: string } };
    expect(body).toMatchObject({ execution_id: run.id, client_id: business.id, automation_config: { triggers: [{ event: 'lead.qualified' }] } });
    expect(body.callback.token.length).toBeGreaterThan(20);

    // Zapier's answer carries an id: kept as the external execution id.
    let stored = run;
    while (stored.execution_id === null && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 25));
      stored = expectJson<ExecutionView>(await clientUser.get(`/api/v1/automation-executions/${run.id}`), 200);
    }
    expect(stored).toMatchObject({ status: 'running', execution_id: '0191e3f5-5d1c-7b8a-9c2e' });
  });
});
