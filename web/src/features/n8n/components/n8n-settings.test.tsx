import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { n8nPayloadTemplate, type N8nConnectionView, type N8nWorkflow } from '@common/api/n8n';
import type { Role } from '@common/roles';
import { setSessionUser } from '@/lib/session';
import { n8nKeys } from '../api/keys';
import { N8nSettings } from './n8n-settings';

const connection: N8nConnectionView = {
  baseUrl: 'http://n8n.internal:5678',
  hasApiKey: true,
  updatedBy: null,
  createdAt: '2026-11-24T10:00:00.000Z',
  updatedAt: '2026-11-24T10:00:00.000Z',
  lastTest: { ok: true, message: 'Connected to n8n: 1 workflow', workflowCount: 1, testedAt: '2026-11-24T10:00:01.000Z' },
  webhookBaseUrl: 'http://n8n.internal:5678/webhook/',
};
const workflows: N8nWorkflow[] = [
  { id: 'wf1', name: 'Parley starter', active: true, webhookUrl: 'http://n8n.internal:5678/webhook/parley-starter', webhookPath: 'parley-starter', updatedAt: null },
];

function signIn(role: Role) {
  setSessionUser({
    id: '6f1c2a40-0000-4b5e-9a51-5a7e1e000001',
    email: 'someone@parley.test',
    name: 'Someone',
    role,
    avatarUrl: null,
    phone: null,
    company: null,
    clientId: null,
    emailVerified: true,
    mfaEnabled: false,
    createdAt: '2026-11-24T10:00:00.000Z',
    lastLogin: null,
  });
}

function render(seed: { connection?: N8nConnectionView | null; workflows?: N8nWorkflow[]; template?: boolean } = {}) {
  const client = new QueryClient();
  if (seed.template !== false) client.setQueryData(n8nKeys.payloadTemplate(), n8nPayloadTemplate('https://parley.example.com', new Date('2026-11-25T00:00:00Z')));
  if (seed.connection !== undefined) client.setQueryData(n8nKeys.connection(), seed.connection);
  if (seed.workflows) client.setQueryData(n8nKeys.workflows(), seed.workflows);
  client.setQueryData(n8nKeys.linked(), new Set<string>());
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <N8nSettings />
    </QueryClientProvider>,
  );
}

describe('the n8n Integration tab', () => {
  beforeAll(() => vi.stubGlobal('window', { location: { origin: 'http://localhost:4173' } }));
  afterAll(() => vi.unstubAllGlobals());

  it("an admin without a connection: the webhook Test, the connection form, the guide with the API's real URLs, no workflow list", () => {
    signIn('admin');
    const html = render({ connection: null });
    expect(html).toContain('aria-label="Webhook test"');
    expect(html).toContain('aria-label="n8n connection"');
    expect(html).toContain('Not connected');
    expect(html).not.toContain('Workflows in n8n');
    expect(html).toContain('https://parley.example.com/api/v1/automation-executions/{id}/messages');
    expect(html).toContain('Download the starter workflow');
  });

  it("an admin with a connection: its test, Test connection, Disconnect, the instance's workflows and its webhook base in the guide", () => {
    signIn('admin');
    const html = render({ connection, workflows });
    expect(html).toContain('Connected to n8n: 1 workflow');
    expect(html).toContain('Test connection');
    expect(html).toContain('Disconnect');
    expect(html).toContain('Workflows in n8n');
    expect(html).toContain('aria-label="Import Parley starter"');
    expect(html).toContain('http://n8n.internal:5678/webhook/parley-starter');
  });

  it('others see no control the server would refuse: who connects n8n, and the guide without the download', () => {
    signIn('manager');
    // The payload template route is admin only: nothing of it reaches a manager's cache.
    const html = render({ template: false });
    expect(html).toContain('n8n is connected by an administrator');
    expect(html).not.toContain('aria-label="Webhook test"');
    expect(html).not.toContain('aria-label="n8n connection"');
    expect(html).not.toContain('Download the starter workflow');
    expect(html).toContain('http://localhost:4173/api/v1/automation-executions/{id}/messages');
  });
});
