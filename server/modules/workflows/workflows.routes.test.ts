/**
 * The workflows, zaps and templates API on both engines: every rule and text of spec part 2
 * ("Workflow, zap and template admin", §4, §5, §8) the server owns, roles, search with LIKE's
 * wildcards, and concurrent assignments.
 *
 * The two ports are test doubles: `AutomationCreator` (the automations module builds the real one)
 * and `N8nWorkflowSwitch` (the n8n module) are not in this branch, so these tests pass simple
 * implementations that record their calls. The doubles look into the transaction they are given,
 * which shows the automation is created in the assignment's transaction.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ClientView } from '../../../common/api/channels';
import type { TemplateView, WorkflowView } from '../../../common/api/workflows';
import { createTestApp, signedInClient, type TestApp, type TestClient } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import { expectJson } from '../../../test/helpers/inbox';
import { AppError } from '../../lib/errors';
import type { AutomationCreator, AutomationFromTemplate, N8nWorkflowSwitch } from './workflow-ports';
import { nextStatus, WorkflowsService } from './workflows.service';

const HOOK = 'https://hooks.example.com/webhook/lead';

interface AutomationCall {
  input: AutomationFromTemplate;
  /** Whether the assignment row was visible through the `db` the creator was given. */
  sawAssignment: boolean;
  id: string;
}

describe('nextStatus', () => {
  it('switches active to paused and anything else to active', () => {
    expect(nextStatus('active')).toBe('paused');
    expect(nextStatus('paused')).toBe('active');
    expect(nextStatus('draft')).toBe('active');
  });
});

describe.each(ENGINES)('workflows API (%s)', (engine) => {
  let app: TestApp;
  let admin: TestClient;
  let manager: TestClient;
  let clientUser: TestClient;
  const automationCalls: AutomationCall[] = [];
  let automationRefusal: Error | null = null;
  const n8nCalls: { id: string; active: boolean }[] = [];
  let n8nRefusal: Error | null = null;

  const automations: AutomationCreator = {
    async createFromTemplate(input, db) {
      // Long enough for a concurrent request to reach its own insert on PostgreSQL.
      await sleep(30);
      if (automationRefusal) throw automationRefusal;
      const row = await db
        .selectFrom('templateClients')
        .select('clientId')
        .where('templateId', '=', input.templateId)
        .where('clientId', '=', input.clientId)
        .executeTakeFirst();
      const call = { input, sawAssignment: row !== undefined, id: randomUUID() };
      automationCalls.push(call);
      return { id: call.id };
    },
  };
  const n8nSwitch: N8nWorkflowSwitch = {
    setActive(id, active) {
      if (n8nRefusal) return Promise.reject(n8nRefusal);
      n8nCalls.push({ id, active });
      return Promise.resolve();
    },
  };

  async function createClient(companyName: string): Promise<ClientView> {
    return expectJson<ClientView>(await admin.post('/api/v1/clients', { companyName }), 201);
  }
  async function createWorkflow(body: Record<string, unknown>): Promise<WorkflowView> {
    return expectJson<WorkflowView>(await admin.post('/api/v1/workflows', { kind: 'n8n', webhookUrl: HOOK, ...body }), 201);
  }
  async function createTemplate(body: Record<string, unknown>): Promise<TemplateView> {
    return expectJson<TemplateView>(
      await admin.post('/api/v1/templates', { type: 'n8n', workflowConfig: { webhookUrl: HOOK, triggers: ['message.received'] }, ...body }),
      201,
    );
  }

  beforeAll(async () => {
    app = await createTestApp(engine, { startJobs: false, workflowPorts: { automations, n8nSwitch } });
    ({ client: admin } = await signedInClient(app, 'admin'));
    ({ client: manager } = await signedInClient(app, 'manager'));
    ({ client: clientUser } = await signedInClient(app, 'client'));
  });
  afterAll(async () => {
    await app.destroy();
  });
  beforeEach(() => {
    automationCalls.length = 0;
    automationRefusal = null;
    n8nCalls.length = 0;
    n8nRefusal = null;
  });

  it('creates a workflow as draft, edits it and deletes it', async () => {
    const created = await createWorkflow({ name: '  Lead intake ', description: 'Sends leads to the CRM' });
    expect(created).toMatchObject({
      kind: 'n8n',
      name: 'Lead intake',
      description: 'Sends leads to the CRM',
      status: 'draft',
      webhookUrl: HOOK,
      appIntegrations: [],
      n8nWorkflowId: null,
      clientCount: 0,
      assignedClients: [],
    });
    expect(created.createdBy).toEqual(expect.any(String));
    expect(expectJson<WorkflowView>(await admin.get(`/api/v1/workflows/${created.id}`), 200)).toEqual(created);

    const edited = expectJson<WorkflowView>(await admin.patch(`/api/v1/workflows/${created.id}`, { name: 'Lead intake v2', webhookUrl: 'http://hooks.example.com/v2' }), 200);
    expect(edited).toMatchObject({ name: 'Lead intake v2', description: 'Sends leads to the CRM', webhookUrl: 'http://hooks.example.com/v2', status: 'draft' });

    expect((await admin.delete(`/api/v1/workflows/${created.id}`)).statusCode).toBe(204);
    expect((await admin.get(`/api/v1/workflows/${created.id}`)).statusCode).toBe(404);
    expect((await admin.delete(`/api/v1/workflows/${created.id}`)).statusCode).toBe(404);
  });

  it('requires a name and a webhook URL, with field messages', async () => {
    const missing = await admin.post('/api/v1/workflows', { kind: 'zapier', name: ' ', webhookUrl: '' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.fields).toMatchObject({ name: 'Name is required', webhookUrl: 'Webhook URL is required' });

    const absent = await admin.post('/api/v1/workflows', { kind: 'zapier' });
    expect(absent.statusCode).toBe(400);
    expect(Object.keys(absent.json().error.fields)).toEqual(expect.arrayContaining(['name', 'webhookUrl']));

    const notHttp = await admin.post('/api/v1/workflows', { kind: 'n8n', name: 'X', webhookUrl: 'ftp://hooks.example.com/x' });
    expect(notHttp.json().error.fields).toEqual({ webhookUrl: 'Please enter a valid http(s) URL' });
    const notUrl = await admin.post('/api/v1/workflows', { kind: 'n8n', name: 'X', webhookUrl: 'hooks.example.com' });
    expect(notUrl.json().error.fields).toEqual({ webhookUrl: 'Please enter a valid http(s) URL' });

    const existing = await createWorkflow({ name: 'Keep me' });
    const cleared = await admin.patch(`/api/v1/workflows/${existing.id}`, { name: '', webhookUrl: ' ' });
    expect(cleared.statusCode).toBe(400);
    expect(cleared.json().error.fields).toMatchObject({ name: 'Name is required', webhookUrl: 'Webhook URL is required' });
    expect((await admin.patch(`/api/v1/workflows/${existing.id}`, {})).statusCode).toBe(400);
    expect((await admin.patch(`/api/v1/workflows/${randomUUID()}`, { name: 'Nobody' })).statusCode).toBe(404);
    expect((await admin.post('/api/v1/workflows', { kind: 'make', name: 'X', webhookUrl: HOOK })).statusCode).toBe(400);
  });

  it('refuses webhook URLs the guarded HTTP client would not call', async () => {
    for (const url of ['http://127.0.0.1:5678/webhook/x', 'http://[::1]/x', 'http://10.0.0.1/x', 'http://169.254.169.254/latest/meta-data/', 'http://localhost/x']) {
      const response = await admin.post('/api/v1/workflows', { kind: 'n8n', name: 'Internal', webhookUrl: url });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().error.message, url).toMatch(/^Refused/u);
      expect(response.json().error.fields.webhookUrl, url).toMatch(/^Refused: .*OUTBOUND_ALLOWED_HOSTS\.$/u);
    }
    const existing = await createWorkflow({ name: 'Public' });
    const edit = await admin.patch(`/api/v1/workflows/${existing.id}`, { webhookUrl: 'http://127.0.0.1/x' });
    expect(edit.statusCode).toBe(400);
    const template = await admin.post('/api/v1/templates', { name: 'T', type: 'n8n', workflowConfig: { webhookUrl: 'http://192.168.1.5/hook' } });
    expect(template.statusCode).toBe(400);
    expect(template.json().error.fields['workflowConfig.webhookUrl']).toMatch(/^Refused/u);
    expect(expectJson<WorkflowView>(await admin.get(`/api/v1/workflows/${existing.id}`), 200).webhookUrl).toBe(HOOK);
  });

  it('keeps zaps and n8n workflows apart; only zaps have app integrations', async () => {
    const zap = expectJson<WorkflowView>(
      await admin.post('/api/v1/workflows', { kind: 'zapier', name: 'Zap kinds', webhookUrl: 'https://hooks.zapier.com/hooks/catch/1/abc', appIntegrations: ['Slack', ' Gmail '] }),
      201,
    );
    expect(zap).toMatchObject({ kind: 'zapier', appIntegrations: ['Slack', 'Gmail'], status: 'draft' });
    expect(expectJson<WorkflowView>(await admin.patch(`/api/v1/workflows/${zap.id}`, { appIntegrations: ['HubSpot'] }), 200).appIntegrations).toEqual(['HubSpot']);
    const n8n = await createWorkflow({ name: 'n8n kinds' });
    const refused = await admin.post('/api/v1/workflows', { kind: 'n8n', name: 'X', webhookUrl: HOOK, appIntegrations: ['Slack'] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.fields).toEqual({ appIntegrations: 'Only zaps have app integrations' });
    expect((await admin.patch(`/api/v1/workflows/${n8n.id}`, { appIntegrations: ['Slack'] })).statusCode).toBe(400);

    const zaps = expectJson<{ workflows: WorkflowView[] }>(await admin.get('/api/v1/workflows?kind=zapier'), 200).workflows;
    expect(zaps.every((w) => w.kind === 'zapier')).toBe(true);
    expect(zaps.map((w) => w.id)).toContain(zap.id);
    const workflows = expectJson<{ workflows: WorkflowView[] }>(await admin.get('/api/v1/workflows?kind=n8n'), 200).workflows;
    expect(workflows.map((w) => w.id)).toContain(n8n.id);
    expect(workflows.map((w) => w.id)).not.toContain(zap.id);
  });

  it('searches name and description case-insensitively, taking % and _ literally', async () => {
    const tag = randomUUID().slice(0, 8);
    const percent = await createWorkflow({ kind: 'zapier', name: `${tag} 100% Growth`, description: 'Upsell' });
    const underscore = await createWorkflow({ kind: 'zapier', name: `${tag} plain`, description: 'Handles snake_case fields' });
    const other = await createWorkflow({ kind: 'zapier', name: `${tag} other`, description: 'Nothing special' });
    const search = async (q: string) =>
      expectJson<{ workflows: WorkflowView[] }>(await admin.get(`/api/v1/workflows?kind=zapier&q=${encodeURIComponent(q)}`), 200)
        .workflows.filter((w) => w.name.startsWith(tag))
        .map((w) => w.id);
    expect(await search('%')).toEqual([percent.id]);
    expect(await search('_')).toEqual([underscore.id]);
    expect(await search('GROWTH')).toEqual([percent.id]);
    expect(await search('SNAKE_case')).toEqual([underscore.id]);
    expect(await search('nothing SPECIAL')).toEqual([other.id]);
    // Newest first.
    expect(await search(tag)).toEqual([other.id, underscore.id, percent.id]);
    expect(await search('\\')).toEqual([]);
    expect(expectJson<{ workflows: WorkflowView[] }>(await admin.get('/api/v1/workflows?kind=n8n&q=100%25%20Growth'), 200).workflows).toEqual([]);

    const t1 = await createTemplate({ name: `${tag} 50% off`, description: 'Discount flow' });
    const t2 = await createTemplate({ name: `${tag} other`, description: 'a_b testing' });
    const templates = async (q: string) =>
      expectJson<{ templates: TemplateView[] }>(await admin.get(`/api/v1/templates?q=${encodeURIComponent(q)}`), 200)
        .templates.filter((t) => t.name.startsWith(tag))
        .map((t) => t.id);
    expect(await templates('%')).toEqual([t1.id]);
    expect(await templates('_')).toEqual([t2.id]);
    expect(await templates('DISCOUNT')).toEqual([t1.id]);
    expect(await templates(tag)).toEqual([t2.id, t1.id]);
    const zapTemplate = await createTemplate({ type: 'zapier', name: `${tag} zap template` });
    const byType = async (type: string) =>
      expectJson<{ templates: TemplateView[] }>(await admin.get(`/api/v1/templates?type=${type}&q=${tag}`), 200).templates.map((t) => t.id);
    expect(await byType('zapier')).toEqual([zapTemplate.id]);
    expect(await byType('n8n')).toEqual([t2.id, t1.id]);
    const everyKind = expectJson<{ workflows: WorkflowView[] }>(await admin.get(`/api/v1/workflows?q=${tag}`), 200).workflows;
    expect(everyKind.map((w) => w.id)).toEqual([other.id, underscore.id, percent.id]);
    expect((await admin.get('/api/v1/workflows?kind=make')).statusCode).toBe(400);
  });

  it('toggles the status on the server: draft -> active -> paused -> active', async () => {
    const workflow = await createWorkflow({ name: 'Toggle me' });
    const toggle = async () => expectJson<WorkflowView>(await admin.post(`/api/v1/workflows/${workflow.id}/toggle-status`), 200).status;
    expect(await toggle()).toBe('active');
    expect(await toggle()).toBe('paused');
    expect(await toggle()).toBe('active');
    expect(n8nCalls).toEqual([]);
    expect((await admin.post(`/api/v1/workflows/${randomUUID()}/toggle-status`)).statusCode).toBe(404);

    const template = await createTemplate({ name: 'Toggle template' });
    expect(template.status).toBe('draft');
    expect(expectJson<TemplateView>(await admin.post(`/api/v1/templates/${template.id}/toggle-status`), 200).status).toBe('active');
    expect(expectJson<TemplateView>(await admin.post(`/api/v1/templates/${template.id}/toggle-status`), 200).status).toBe('paused');
  });

  it('switches a workflow linked to n8n in n8n first, and stores nothing when n8n refuses', async () => {
    const n8nId = `wf-${randomUUID().slice(0, 8)}`;
    const { workflow, created } = await app.services.workflows.importLinked({
      name: 'Starter',
      description: 'From n8n',
      webhookUrl: 'http://n8n.example.com/webhook/parley',
      n8nWorkflowId: n8nId,
      active: true,
      createdBy: null,
    });
    expect(created).toBe(true);
    expect(workflow).toMatchObject({ kind: 'n8n', status: 'active', n8nWorkflowId: n8nId, createdBy: null });

    const paused = expectJson<WorkflowView>(await admin.post(`/api/v1/workflows/${workflow.id}/toggle-status`), 200);
    expect(paused.status).toBe('paused');
    expect(n8nCalls).toEqual([{ id: n8nId, active: false }]);

    n8nRefusal = new Error('Workflow has no node to start the workflow - at least one trigger, poller or webhook node is required');
    const refused = await admin.post(`/api/v1/workflows/${workflow.id}/toggle-status`);
    expect(refused.statusCode).toBe(502);
    expect(refused.json().error).toEqual({
      code: 'BAD_GATEWAY',
      message: 'n8n refused to activate the workflow: Workflow has no node to start the workflow - at least one trigger, poller or webhook node is required',
    });
    expect(expectJson<WorkflowView>(await admin.get(`/api/v1/workflows/${workflow.id}`), 200).status).toBe('paused');

    n8nRefusal = new AppError('UNAVAILABLE', 'Could not reach n8n at http://n8n.example.com: connect ECONNREFUSED');
    const unreachable = await admin.post(`/api/v1/workflows/${workflow.id}/toggle-status`);
    expect(unreachable.statusCode).toBe(503);
    expect(unreachable.json().error.message).toBe('Could not reach n8n at http://n8n.example.com: connect ECONNREFUSED');
    expect(expectJson<WorkflowView>(await admin.get(`/api/v1/workflows/${workflow.id}`), 200).status).toBe('paused');
  });

  it('imports a linked n8n workflow once per n8n id, refreshing it and keeping its clients', async () => {
    const n8nId = `wf-${randomUUID().slice(0, 8)}`;
    const first = await app.services.workflows.importLinked({ name: 'Imported', webhookUrl: 'http://n8n.example.com/webhook/a', n8nWorkflowId: n8nId, active: false, createdBy: null });
    expect(first.created).toBe(true);
    expect(first.workflow).toMatchObject({ status: 'paused', description: '' });
    const client = await createClient('Imported Co');
    expectJson(await admin.post(`/api/v1/workflows/${first.workflow.id}/clients`, { clientId: client.id }), 201);
    const again = await app.services.workflows.importLinked({
      name: 'Imported (renamed in n8n)',
      description: 'Now documented',
      webhookUrl: 'http://n8n.example.com/webhook/b',
      n8nWorkflowId: n8nId,
      active: true,
      createdBy: null,
    });
    expect(again.created).toBe(false);
    await expect(
      app.services.workflows.importLinked({ name: 'Bad', webhookUrl: 'file:///etc/passwd', n8nWorkflowId: 'x1', active: true, createdBy: null }),
    ).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(again.workflow).toMatchObject({
      id: first.workflow.id,
      name: 'Imported (renamed in n8n)',
      description: 'Now documented',
      webhookUrl: 'http://n8n.example.com/webhook/b',
      status: 'active',
      clientCount: 1,
    });
  });

  it('assigns and removes clients; assigning twice is refused', async () => {
    const workflow = await createWorkflow({ kind: 'zapier', name: 'Assign zap' });
    const acme = await createClient('Acme');
    const globex = await createClient('Globex');
    const first = expectJson<WorkflowView>(await admin.post(`/api/v1/workflows/${workflow.id}/clients`, { clientId: acme.id }), 201);
    expect(first.clientCount).toBe(1);
    expect(first.assignedClients).toEqual([{ id: acme.id, name: 'Acme', assignedAt: expect.any(String) }]);
    const second = expectJson<WorkflowView>(await admin.post(`/api/v1/workflows/${workflow.id}/clients`, { clientId: globex.id }), 201);
    expect(second.clientCount).toBe(2);
    expect(second.assignedClients.map((c) => c.name)).toEqual(['Acme', 'Globex']);

    const again = await admin.post(`/api/v1/workflows/${workflow.id}/clients`, { clientId: acme.id });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toEqual({ code: 'CONFLICT', message: 'Acme is already assigned to this zap', details: { title: 'Client Already Assigned' } });
    const n8n = await createWorkflow({ name: 'Assign n8n' });
    expectJson(await admin.post(`/api/v1/workflows/${n8n.id}/clients`, { clientId: acme.id }), 201);
    expect((await admin.post(`/api/v1/workflows/${n8n.id}/clients`, { clientId: acme.id })).json().error.message).toBe('Acme is already assigned to this workflow');

    const unknownClient = await admin.post(`/api/v1/workflows/${workflow.id}/clients`, { clientId: randomUUID() });
    expect(unknownClient.statusCode).toBe(404);
    expect(unknownClient.json().error.fields).toEqual({ clientId: 'Client not found' });
    expect((await admin.post(`/api/v1/workflows/${randomUUID()}/clients`, { clientId: acme.id })).statusCode).toBe(404);
    expect((await admin.post(`/api/v1/workflows/${workflow.id}/clients`, { clientId: 'acme' })).json().error.fields).toEqual({ clientId: 'Please choose a client' });

    const removed = expectJson<WorkflowView>(await admin.delete(`/api/v1/workflows/${workflow.id}/clients/${acme.id}`), 200);
    expect(removed.clientCount).toBe(1);
    expect(removed.assignedClients.map((c) => c.id)).toEqual([globex.id]);
    const notAssigned = await admin.delete(`/api/v1/workflows/${workflow.id}/clients/${acme.id}`);
    expect(notAssigned.statusCode).toBe(404);
    expect(notAssigned.json().error.message).toBe('The client is not assigned to this zap');
    expect((await admin.delete(`/api/v1/workflows/${randomUUID()}/clients/${acme.id}`)).statusCode).toBe(404);
  });

  it('keeps both of two concurrent assignments, and refuses a doubled one exactly once', async () => {
    const workflow = await createWorkflow({ name: 'Concurrent' });
    const [a, b, c] = [await createClient('Concurrent A'), await createClient('Concurrent B'), await createClient('Concurrent C')];
    const { client: secondAdmin } = await signedInClient(app, 'admin');
    const both = await Promise.all([
      admin.post(`/api/v1/workflows/${workflow.id}/clients`, { clientId: a.id }),
      secondAdmin.post(`/api/v1/workflows/${workflow.id}/clients`, { clientId: b.id }),
    ]);
    expect(both.map((r) => r.statusCode)).toEqual([201, 201]);
    const doubled = await Promise.all([
      admin.post(`/api/v1/workflows/${workflow.id}/clients`, { clientId: c.id }),
      secondAdmin.post(`/api/v1/workflows/${workflow.id}/clients`, { clientId: c.id }),
    ]);
    expect(doubled.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    const view = expectJson<WorkflowView>(await admin.get(`/api/v1/workflows/${workflow.id}`), 200);
    expect(view.clientCount).toBe(3);
    expect(view.assignedClients.map((x) => x.id).sort()).toEqual([a.id, b.id, c.id].sort());

    const template = await createTemplate({ name: 'Concurrent template' });
    const templateBoth = await Promise.all([
      admin.post(`/api/v1/templates/${template.id}/clients`, { clientId: a.id }),
      secondAdmin.post(`/api/v1/templates/${template.id}/clients`, { clientId: b.id }),
    ]);
    expect(templateBoth.map((r) => r.statusCode)).toEqual([201, 201]);
    const templateDoubled = await Promise.all([
      admin.post(`/api/v1/templates/${template.id}/clients`, { clientId: c.id }),
      secondAdmin.post(`/api/v1/templates/${template.id}/clients`, { clientId: c.id }),
    ]);
    expect(templateDoubled.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    const templateView = expectJson<TemplateView>(await admin.get(`/api/v1/templates/${template.id}`), 200);
    expect(templateView.clientCount).toBe(3);
    // One automation per assignment, none for the refused one.
    expect(automationCalls.map((call) => call.input.clientId).sort()).toEqual([a.id, b.id, c.id].sort());
  });

  it('creates and edits templates, with the workflow config', async () => {
    const template = await createTemplate({ name: ' Lead follow-up ', description: 'Follows up leads', workflowConfig: { webhookUrl: HOOK, triggers: ['lead.qualified', ' message.received '] } });
    expect(template).toMatchObject({
      name: 'Lead follow-up',
      description: 'Follows up leads',
      type: 'n8n',
      status: 'draft',
      workflowConfig: { webhookUrl: HOOK, triggers: [{ event: 'lead.qualified' }, { event: 'message.received' }] },
      hasN8nWorkflow: false,
      clientCount: 0,
      clientAssignments: [],
    });
    const edited = expectJson<TemplateView>(await admin.patch(`/api/v1/templates/${template.id}`, { name: 'Lead follow-up v2', workflowConfig: { triggers: [{ event: 'lead.qualified', filters: { channel: ['whatsapp'] } }] } }), 200);
    expect(edited).toMatchObject({ name: 'Lead follow-up v2', workflowConfig: { webhookUrl: HOOK, triggers: [{ event: 'lead.qualified', filters: { channel: ['whatsapp'] } }] } });
    const moved = expectJson<TemplateView>(await admin.patch(`/api/v1/templates/${template.id}`, { workflowConfig: { webhookUrl: 'https://n8n.example.com/webhook/v2' } }), 200);
    expect(moved.workflowConfig).toEqual({ webhookUrl: 'https://n8n.example.com/webhook/v2', triggers: [{ event: 'lead.qualified', filters: { channel: ['whatsapp'] } }] });

    const missing = await admin.post('/api/v1/templates', { name: '', type: 'zapier', workflowConfig: { webhookUrl: '' } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.fields).toMatchObject({ name: 'Name is required', 'workflowConfig.webhookUrl': 'Webhook URL is required' });
    expect((await admin.patch(`/api/v1/templates/${template.id}`, { name: ' ' })).json().error.fields).toEqual({ name: 'Name is required' });
    expect((await admin.patch(`/api/v1/templates/${randomUUID()}`, { name: 'X' })).statusCode).toBe(404);
    expect((await admin.post('/api/v1/templates', { name: 'T', type: 'n8n', workflowConfig: { webhookUrl: HOOK, triggers: [''] } })).statusCode).toBe(400);

    expect((await admin.delete(`/api/v1/templates/${template.id}`)).statusCode).toBe(204);
    expect((await admin.get(`/api/v1/templates/${template.id}`)).statusCode).toBe(404);
    expect((await admin.delete(`/api/v1/templates/${template.id}`)).statusCode).toBe(404);
  });

  it('keeps an n8n template’s importable workflow exactly as given', async () => {
    const workflowJson = {
      name: 'Parley starter',
      nodes: [{ name: 'Webhook', type: 'n8n-nodes-base.webhook', typeVersion: 2, parameters: { path: 'parley', http_method: 'POST', options: { response_code: 200 } } }],
      connections: { Webhook: { main: [[]] } },
      settings: { executionOrder: 'v1' },
    };
    const template = await createTemplate({ name: 'With JSON', n8nWorkflowJson: workflowJson });
    expect(template.hasN8nWorkflow).toBe(true);
    const download = await admin.get(`/api/v1/templates/${template.id}/n8n-workflow`);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toBe('attachment; filename="n8n-workflow.json"');
    expect(download.json()).toEqual(workflowJson);

    const plain = await createTemplate({ name: 'Without JSON' });
    expect((await admin.get(`/api/v1/templates/${plain.id}/n8n-workflow`)).json().error.message).toBe('This template has no n8n workflow');
    const zapier = await admin.post('/api/v1/templates', { name: 'Zap JSON', type: 'zapier', workflowConfig: { webhookUrl: HOOK }, n8nWorkflowJson: workflowJson });
    expect(zapier.statusCode).toBe(400);
    expect(zapier.json().error.fields).toEqual({ n8nWorkflowJson: 'Only n8n templates carry an n8n workflow' });
    const malformed = await admin.post('/api/v1/templates', { name: 'Bad JSON', type: 'n8n', workflowConfig: { webhookUrl: HOOK }, n8nWorkflowJson: { nodes: 'none' } });
    expect(malformed.statusCode).toBe(400);
    expect(expectJson<TemplateView>(await admin.patch(`/api/v1/templates/${template.id}`, { n8nWorkflowJson: null }), 200).hasN8nWorkflow).toBe(false);
  });

  it('clones a template as a draft named "(Copy)" with no clients', async () => {
    const template = await createTemplate({ name: 'Original', description: 'The first', workflowConfig: { webhookUrl: HOOK, triggers: ['message.received', 'conversation.escalated'] } });
    expectJson(await admin.post(`/api/v1/templates/${template.id}/toggle-status`), 200);
    const acme = await createClient('Clone Co');
    expectJson(await admin.post(`/api/v1/templates/${template.id}/clients`, { clientId: acme.id }), 201);
    const copy = expectJson<TemplateView>(await admin.post(`/api/v1/templates/${template.id}/clone`), 201);
    expect(copy).toMatchObject({
      name: 'Original (Copy)',
      description: 'The first',
      type: 'n8n',
      status: 'draft',
      workflowConfig: { webhookUrl: HOOK, triggers: [{ event: 'message.received' }, { event: 'conversation.escalated' }] },
      clientCount: 0,
      clientAssignments: [],
    });
    expect(copy.id).not.toBe(template.id);
    expect(expectJson<TemplateView>(await admin.post(`/api/v1/templates/${copy.id}/clone`), 201).name).toBe('Original (Copy) (Copy)');
    expect((await admin.post(`/api/v1/templates/${randomUUID()}/clone`)).statusCode).toBe(404);
  });

  it("assigning a template creates the client's automation in the same transaction", async () => {
    const template = await createTemplate({ name: 'Lead bot', description: 'Qualifies leads', workflowConfig: { webhookUrl: HOOK, triggers: ['lead.qualified'] } });
    const client = await createClient('Initech');
    const { client: assigner, userId: adminId } = await signedInClient(app, 'admin');
    const assigned = expectJson<TemplateView>(await assigner.post(`/api/v1/templates/${template.id}/clients`, { clientId: client.id }), 201);
    expect(assigned.clientCount).toBe(1);
    expect(assigned.clientAssignments).toEqual([{ clientId: client.id, clientName: 'Initech', assignedAt: expect.any(String), automationId: automationCalls[0]?.id }]);
    expect(automationCalls).toEqual([
      {
        input: { clientId: client.id, templateId: template.id, name: 'Lead bot', description: 'Qualifies leads', workflowUrl: HOOK, triggers: [{ event: 'lead.qualified' }], createdBy: adminId },
        sawAssignment: true,
        id: expect.any(String),
      },
    ]);

    const again = await admin.post(`/api/v1/templates/${template.id}/clients`, { clientId: client.id });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toEqual({ code: 'CONFLICT', message: 'Initech is already assigned to this template', details: { title: 'Client Already Assigned' } });
    expect(automationCalls).toHaveLength(1);

    // The automation refused: no assignment either.
    const other = await createClient('Umbrella');
    automationRefusal = new AppError('VALIDATION_ERROR', 'Automation name is too long', { fields: { name: 'Automation name is too long' } });
    const refused = await admin.post(`/api/v1/templates/${template.id}/clients`, { clientId: other.id });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toBe('Automation name is too long');
    automationRefusal = new Error('boom');
    expect((await admin.post(`/api/v1/templates/${template.id}/clients`, { clientId: other.id })).statusCode).toBe(500);
    expect(expectJson<TemplateView>(await admin.get(`/api/v1/templates/${template.id}`), 200).clientCount).toBe(1);

    const unknown = await admin.post(`/api/v1/templates/${template.id}/clients`, { clientId: randomUUID() });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.fields).toEqual({ clientId: 'Client not found' });

    const removed = expectJson<TemplateView>(await admin.delete(`/api/v1/templates/${template.id}/clients/${client.id}`), 200);
    expect(removed).toMatchObject({ clientCount: 0, clientAssignments: [] });
    expect((await admin.delete(`/api/v1/templates/${template.id}/clients/${client.id}`)).json().error.message).toBe('The client is not assigned to this template');
  });

  it('answers 503 for what needs a module this server was built without', async () => {
    const bare = new WorkflowsService({ db: app.database.db, checkOutboundUrl: () => null });
    const template = await createTemplate({ name: 'No automations here' });
    const client = await createClient('Bare Co');
    await expect(bare.assignTemplateClient(template.id, client.id, randomUUID())).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      status: 503,
      message: 'Automations are not configured on this server, so a template cannot be assigned',
    });
    const { workflow } = await bare.importLinked({ name: 'Linked', webhookUrl: HOOK, n8nWorkflowId: `wf-${randomUUID().slice(0, 8)}`, active: true, createdBy: null });
    await expect(bare.toggleWorkflowStatus(workflow.id)).rejects.toMatchObject({ code: 'UNAVAILABLE', status: 503 });
    expect((await bare.getWorkflow(workflow.id)).status).toBe('active');
    expect((await bare.getTemplate(template.id)).clientCount).toBe(0);
  });

  it('is for administrators only', async () => {
    const workflow = await createWorkflow({ name: 'Admins only' });
    const template = await createTemplate({ name: 'Admins only' });
    const client = await createClient('Roles Co');
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/v1/workflows'],
      ['POST', '/api/v1/workflows', { kind: 'n8n', name: 'X', webhookUrl: HOOK }],
      ['GET', `/api/v1/workflows/${workflow.id}`],
      ['PATCH', `/api/v1/workflows/${workflow.id}`, { name: 'Hijacked' }],
      ['DELETE', `/api/v1/workflows/${workflow.id}`],
      ['POST', `/api/v1/workflows/${workflow.id}/toggle-status`],
      ['POST', `/api/v1/workflows/${workflow.id}/clients`, { clientId: client.id }],
      ['DELETE', `/api/v1/workflows/${workflow.id}/clients/${client.id}`],
      ['GET', '/api/v1/templates'],
      ['POST', '/api/v1/templates', { name: 'X', type: 'n8n', workflowConfig: { webhookUrl: HOOK } }],
      ['GET', `/api/v1/templates/${template.id}`],
      ['GET', `/api/v1/templates/${template.id}/n8n-workflow`],
      ['PATCH', `/api/v1/templates/${template.id}`, { name: 'Hijacked' }],
      ['DELETE', `/api/v1/templates/${template.id}`],
      ['POST', `/api/v1/templates/${template.id}/toggle-status`],
      ['POST', `/api/v1/templates/${template.id}/clone`],
      ['POST', `/api/v1/templates/${template.id}/clients`, { clientId: client.id }],
      ['DELETE', `/api/v1/templates/${template.id}/clients/${client.id}`],
    ];
    const anonymous = app.client();
    for (const [method, url, body] of calls) {
      for (const [who, user] of [['manager', manager], ['client', clientUser]] as const) {
        const response = await user.request({ method, url, body });
        expect(response.statusCode, `${who} ${method} ${url}`).toBe(403);
      }
      expect((await anonymous.request({ method, url, body })).statusCode, `anonymous ${method} ${url}`).toBe(401);
    }
    expect(expectJson<WorkflowView>(await admin.get(`/api/v1/workflows/${workflow.id}`), 200)).toMatchObject({ name: 'Admins only', status: 'draft', clientCount: 0 });
    expect(expectJson<TemplateView>(await admin.get(`/api/v1/templates/${template.id}`), 200)).toMatchObject({ name: 'Admins only', clientCount: 0 });
    expect(automationCalls).toEqual([]);
  });
});
