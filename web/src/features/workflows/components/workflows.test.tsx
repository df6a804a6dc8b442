import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { TemplateView, WorkflowView } from '@common/api/workflows';
import { templateKeys, workflowKeys } from '../api/keys';
import { AssignedClientList, pickableClients, pickerNotice } from './client-assignment';
import { TEMPLATE_ASSIGNMENT_NOTE, TemplateCard } from './template-card';
import { TemplatesAdmin } from './templates-admin';
import { toggleHint, WorkflowCard } from './workflow-card';
import { WorkflowsAdmin } from './workflows-admin';

const NOW = '2026-11-20T10:00:00.000Z';
const workflow: WorkflowView = {
  id: '00000000-0000-4000-8000-000000000001',
  kind: 'n8n',
  name: 'Lead intake',
  description: 'Sends new leads to the CRM',
  status: 'draft',
  webhookUrl: 'https://n8n.example.com/webhook/lead-intake',
  appIntegrations: [],
  n8nWorkflowId: null,
  clientCount: 1,
  assignedClients: [{ id: '00000000-0000-4000-8000-0000000000c1', name: 'Bakery Bliss', assignedAt: NOW }],
  createdBy: null,
  createdAt: NOW,
  updatedAt: NOW,
};
const template: TemplateView = {
  id: '00000000-0000-4000-8000-000000000002',
  name: 'Welcome flow',
  description: '',
  type: 'n8n',
  status: 'active',
  workflowConfig: { webhookUrl: 'https://n8n.example.com/webhook/welcome', triggers: [{ event: 'message.received', filters: { channel: ['whatsapp', 'webchat'] } }] },
  hasN8nWorkflow: true,
  clientCount: 0,
  clientAssignments: [],
  createdBy: null,
  createdAt: NOW,
  updatedAt: NOW,
};

function render(node: ReactNode, seed: (client: QueryClient) => void = () => undefined) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  seed(client);
  return renderToStaticMarkup(<QueryClientProvider client={client}>{node}</QueryClientProvider>);
}
const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/gu, ' ')
    .replace(/&quot;/gu, '"')
    .replace(/&#x27;/gu, "'")
    .replace(/&amp;/gu, '&')
    .replace(/\s+/gu, ' ')
    .trim();

describe('the workflow and zap lists', () => {
  it("say 'No workflows found' / 'No zaps found' when the server finds none", () => {
    const n8n = render(<WorkflowsAdmin kind="n8n" />, (c) => c.setQueryData(workflowKeys.list('n8n', ''), { workflows: [], n8nSync: null }));
    expect(textOf(n8n)).toContain('No workflows found');
    expect(n8n).toContain('aria-label="Search workflows"');
    const zaps = render(<WorkflowsAdmin kind="zapier" />, (c) => c.setQueryData(workflowKeys.list('zapier', ''), { workflows: [], n8nSync: null }));
    expect(textOf(zaps)).toContain('No zaps found');
    expect(zaps).toContain('Create Zap');
  });

  it('say when linked workflows show their stored state because n8n could not be asked', () => {
    const sync = { ok: false, message: 'Could not reach n8n at http://10.0.0.5:5678: ECONNREFUSED', checkedAt: '2026-11-25T01:00:00.000Z' };
    const stale = textOf(render(<WorkflowsAdmin kind="n8n" />, (c) => c.setQueryData(workflowKeys.list('n8n', ''), { workflows: [workflow], n8nSync: sync })));
    expect(stale).toContain(`Showing the last known states of the workflows linked to n8n: ${sync.message}`);
    const fresh = textOf(render(<WorkflowsAdmin kind="n8n" />, (c) => c.setQueryData(workflowKeys.list('n8n', ''), { workflows: [workflow], n8nSync: { ...sync, ok: true } })));
    expect(fresh).not.toContain('Showing the last known states');
  });

  it('show each workflow as a card with its status, URL copy, client count and actions', () => {
    const text = textOf(render(<WorkflowsAdmin kind="n8n" />, (c) => c.setQueryData(workflowKeys.list('n8n', ''), { workflows: [workflow], n8nSync: null })));
    expect(text).toContain('Lead intake');
    expect(text).toContain('Draft');
    expect(text).toContain('https://n8n.example.com/webhook/lead-intake');
    expect(text).toContain('Clients (1)');
    expect(text).not.toContain('Linked to n8n');
    const html = render(<WorkflowCard workflow={workflow} />);
    expect(html).toContain('aria-label="Copy the webhook URL of Lead intake"');
    expect(html).toContain('aria-label="Delete Lead intake"');
    expect(html).toMatch(/role="switch"[^>]*aria-checked="false"/u);
  });

  it('show a linked n8n workflow as linked, and that its switch acts in n8n', () => {
    const linked = { ...workflow, n8nWorkflowId: 'wf42', status: 'active' as const };
    const text = textOf(render(<WorkflowCard workflow={linked} />));
    expect(text).toContain('Linked to n8n workflow wf42');
    expect(text).toContain('Switching off deactivates the workflow in n8n');
    expect(toggleHint({ status: 'paused', n8nWorkflowId: 'wf42' })).toBe('Switching on activates the workflow in n8n');
    expect(toggleHint({ status: 'draft', n8nWorkflowId: null })).toBe('Switch on to make it active');
  });

  it("show a zap's app integrations", () => {
    const zap = { ...workflow, kind: 'zapier' as const, appIntegrations: ['Gmail', 'Slack'] };
    expect(render(<WorkflowCard workflow={zap} />)).toMatch(/aria-label="App integrations".*Gmail.*Slack/u);
  });
});

describe('client assignment', () => {
  const clients = [
    { id: 'c1', name: 'Bakery Bliss' },
    { id: 'c2', name: 'Clinic' },
  ];
  const assigned = [{ id: 'c1', name: 'Bakery Bliss', assignedAt: NOW }];

  it('offers workflows and zaps only the clients not assigned yet, templates every client', () => {
    expect(pickableClients(clients, assigned, 'unassigned-only')).toEqual([{ id: 'c2', name: 'Clinic' }]);
    expect(pickableClients(clients, assigned, 'all')).toEqual(clients);
  });

  it("says 'All clients are already assigned to this workflow/zap' when none is left", () => {
    expect(pickerNotice(2, 0)).toBe('All clients are already assigned to this workflow/zap');
    expect(pickerNotice(0, 0)).toBe('No clients yet. Add one under Clients first.');
    expect(pickerNotice(2, 1)).toBeNull();
  });

  it("lists the assigned clients with Remove, or 'No clients assigned yet'", () => {
    expect(textOf(render(<AssignedClientList assigned={[]} pending={false} onRemove={() => undefined} />))).toBe('No clients assigned yet');
    const html = render(<AssignedClientList assigned={assigned} pending={false} onRemove={() => undefined} />);
    expect(html).toContain('aria-label="Remove Bakery Bliss"');
  });
});

describe('the template list', () => {
  it("says 'No templates found' when the server finds none", () => {
    expect(textOf(render(<TemplatesAdmin />, (c) => c.setQueryData(templateKeys.list(''), [])))).toContain('No templates found');
  });

  it('shows a template with its type, triggers, clone, and the download of its n8n workflow', () => {
    const html = render(<TemplateCard template={template} />);
    const text = textOf(html);
    expect(text).toContain('Welcome flow');
    expect(text).toContain('n8n');
    expect(text).toContain('Active');
    expect(text).toContain('message.received · WhatsApp, Website chat');
    expect(text).toContain('Importable n8n workflow');
    expect(html).toContain('aria-label="Download the n8n workflow of Welcome flow"');
    expect(html).toContain('aria-label="Clone Welcome flow"');
    expect(html).toContain('aria-label="Edit Welcome flow"');
    expect(textOf(render(<TemplateCard template={{ ...template, hasN8nWorkflow: false }} />))).not.toContain('Importable n8n workflow');
  });

  it('says that assigning a client creates its automation', () => {
    expect(TEMPLATE_ASSIGNMENT_NOTE).toMatch(/^Assigning a client creates that client's automation from this template/u);
  });
});
