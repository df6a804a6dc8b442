import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { AutomationView } from '@common/api/automations';
import type { Role } from '@common/roles';
import { automationKeys } from '../api/keys';
import { AutomationDetails } from './automation-details';
import { AutomationsScreen, NO_AUTOMATIONS_ADMIN, NO_AUTOMATIONS_OTHERS, SELECT_AUTOMATION } from './automations-screen';

const automation: AutomationView = {
  id: '00000000-0000-4000-8000-0000000000aa',
  name: 'Lead follow-up',
  description: null,
  workflow_id: 'wf-1',
  workflow_url: 'https://n8n.example.com/webhook/lead',
  status: 'inactive',
  config: {},
  client_id: null,
  created_by: null,
  created_at: '2026-01-01T10:00:00.000Z',
  updated_at: '2026-01-01T10:00:00.000Z',
};

function render(role: Role, automations: AutomationView[]): string {
  const queryClient = new QueryClient();
  queryClient.setQueryData(automationKeys.list(), automations);
  return renderToStaticMarkup(
    <QueryClientProvider client={queryClient}>
      <AutomationsScreen role={role} />
    </QueryClientProvider>,
  );
}

describe('the automations screen', () => {
  it('invites admins to create the first automation, and tells others truthfully who sets them up', () => {
    const admin = render('admin', []);
    expect(admin).toContain(NO_AUTOMATIONS_ADMIN);
    expect(NO_AUTOMATIONS_ADMIN).toBe('No automations found. Create your first automation to get started.');
    expect(admin).toContain('Add Automation');
    for (const role of ['manager', 'client'] as const) {
      const html = render(role, []);
      expect(html, role).toContain(NO_AUTOMATIONS_OTHERS);
      expect(html, role).not.toContain('Add Automation');
      expect(html, role).not.toContain('Create your first automation');
    }
  });

  it('lists the automations and asks to select one for its details', () => {
    const html = render('client', [automation]);
    expect(html).toContain('Lead follow-up');
    expect(html).toContain(SELECT_AUTOMATION);
    expect(SELECT_AUTOMATION).toBe('Select an automation to view details and execution history.');
    expect(html).not.toContain('Configure');
  });
});

describe('the automation’s details', () => {
  it('say which events run it', () => {
    const queryClient = new QueryClient();
    const html = renderToStaticMarkup(
      <QueryClientProvider client={queryClient}>
        <AutomationDetails
          automation={{ ...automation, config: { triggers: [{ event: 'conversation.escalated', filters: { channel: ['whatsapp'] } }, { event: 'lead.qualified' }] } }}
        />
      </QueryClientProvider>,
    );
    expect(html).toContain('Runs on: conversation.escalated · WhatsApp; lead.qualified');
    expect(renderToStaticMarkup(<QueryClientProvider client={queryClient}><AutomationDetails automation={automation} /></QueryClientProvider>)).not.toContain('Runs on');
  });
});
