import { describe, expect, it } from 'vitest';
import type { TemplateView } from '@common/api/workflows';
import { splitLines } from './lines';
import { n8nWorkflowFileName, parseN8nJson, templateFormValues, toCreateTemplateInput, toUpdateTemplateInput, type TemplateFormValues } from './template-form';
import { toCreateWorkflowInput, toUpdateWorkflowInput } from './workflow-form';

const N8N = { name: 'Starter', nodes: [{ type: 'n8n-nodes-base.webhook', name: 'Webhook' }], connections: {} };

describe('the workflow and zap form', () => {
  it('sends app integrations one per line for zaps only, blank lines dropped', () => {
    const values = { name: ' Leads ', description: '', webhookUrl: ' https://hooks.zapier.com/hooks/catch/1/a ', apps: 'Gmail\n\n Slack \nGmail' };
    expect(toCreateWorkflowInput('zapier', values)).toEqual({
      kind: 'zapier',
      name: 'Leads',
      description: '',
      webhookUrl: 'https://hooks.zapier.com/hooks/catch/1/a',
      appIntegrations: ['Gmail', 'Slack'],
    });
    expect(toCreateWorkflowInput('n8n', values)).not.toHaveProperty('appIntegrations');
    expect(toUpdateWorkflowInput('n8n', values)).not.toHaveProperty('appIntegrations');
  });

  it('splits lines', () => {
    expect(splitLines('a\r\n b \n\n')).toEqual(['a', 'b']);
  });
});

describe('the template form', () => {
  const values: TemplateFormValues = { name: 'Welcome', description: '', type: 'n8n', webhookUrl: 'https://n8n.example.com/webhook/w', triggers: [{ event: 'message.received' }, { event: 'lead.qualified', filters: { channel: ['whatsapp'] } }], n8nJson: '' };

  it('accepts a blank n8n JSON as none, refuses text that is not JSON or not an n8n workflow', () => {
    expect(parseN8nJson('  ')).toEqual({ ok: true, value: null });
    expect(parseN8nJson(JSON.stringify(N8N))).toEqual({ ok: true, value: N8N });
    expect(parseN8nJson('{nodes:')).toEqual({ ok: false, error: 'This is not valid JSON. Paste the workflow as n8n exports it.' });
    expect(parseN8nJson('{"connections":{}}')).toMatchObject({ ok: false, error: 'An n8n workflow needs a list of nodes' });
  });

  it('creates with the workflow config and the JSON when given', () => {
    expect(toCreateTemplateInput(values, N8N)).toEqual({
      name: 'Welcome',
      description: '',
      type: 'n8n',
      workflowConfig: { webhookUrl: 'https://n8n.example.com/webhook/w', triggers: [{ event: 'message.received' }, { event: 'lead.qualified', filters: { channel: ['whatsapp'] } }] },
      n8nWorkflowJson: N8N,
    });
    expect(toCreateTemplateInput({ ...values, type: 'zapier' }, N8N)).not.toHaveProperty('n8nWorkflowJson');
  });

  it('on edit, a cleared JSON field removes the stored workflow, and an untouched empty one sends nothing', () => {
    expect(toUpdateTemplateInput(values, null, true)).toHaveProperty('n8nWorkflowJson', null);
    expect(toUpdateTemplateInput(values, null, false)).not.toHaveProperty('n8nWorkflowJson');
    expect(toUpdateTemplateInput(values, N8N, false)).toHaveProperty('n8nWorkflowJson', N8N);
    expect(toUpdateTemplateInput(values, null, true)).not.toHaveProperty('type');
  });

  it('fills the form from a template and its stored JSON', () => {
    const template = { name: 'T', description: 'd', type: 'n8n', workflowConfig: { webhookUrl: 'https://x.test/w', triggers: [{ event: 'message.received' }, { event: 'conversation.escalated', filters: { conversation_status: ['escalated'] } }] } } as TemplateView;
    expect(templateFormValues(template, N8N)).toEqual({ name: 'T', description: 'd', type: 'n8n', webhookUrl: 'https://x.test/w', triggers: template.workflowConfig.triggers, n8nJson: JSON.stringify(N8N, null, 2) });
  });

  it('names the downloaded workflow after the template', () => {
    expect(n8nWorkflowFileName('Café Welcome flow!')).toBe('cafe-welcome-flow.n8n.json');
    expect(n8nWorkflowFileName('***')).toBe('template.n8n.json');
  });
});
