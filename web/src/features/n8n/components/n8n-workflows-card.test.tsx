import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { N8nWorkflow } from '@common/api/n8n';
import { N8nWorkflowRow } from './n8n-workflows-card';

const workflow: N8nWorkflow = {
  id: 'wf1',
  name: 'Parley starter',
  active: true,
  webhookUrl: 'http://n8n.internal:5678/webhook/parley-starter',
  webhookPath: 'parley-starter',
  updatedAt: null,
};
const noop = () => undefined;
const row = (overrides: Partial<Parameters<typeof N8nWorkflowRow>[0]> = {}) =>
  renderToStaticMarkup(<N8nWorkflowRow workflow={workflow} imported={false} switching={false} importing={false} onToggle={noop} onImport={noop} {...overrides} />);

describe("a workflow of the n8n instance", () => {
  it("shows n8n's name, its real active state, its webhook URL and Import", () => {
    const html = row();
    expect(html).toContain('Parley starter');
    expect(html).toContain('Active');
    expect(html).toContain('aria-checked="true"');
    expect(html).toContain('http://n8n.internal:5678/webhook/parley-starter');
    expect(html).toContain('aria-label="Import Parley starter"');
  });

  it('an imported one says so instead of offering Import again; one without a POST webhook says it cannot run', () => {
    const html = row({ imported: true, workflow: { ...workflow, active: false, webhookUrl: null, webhookPath: null } });
    expect(html).toContain('Imported');
    expect(html).toContain('Inactive');
    expect(html).not.toContain('aria-label="Import');
    expect(html).toContain('No Webhook node taking POST');
  });
});
