import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { installationValues } from '../lib/installation';
import { N8nGuideView } from './n8n-guide';

const values = installationValues(undefined, 'https://parley.example.com');

describe('the N8N integration guide', () => {
  it("has every section, with this installation's real values and copy buttons", () => {
    const html = renderToStaticMarkup(<N8nGuideView values={values} n8nWebhookBase="http://n8n.internal:5678/webhook/" download={<button type="button">Download</button>} />);
    for (const title of ['1. Prerequisites', '2. The webhook URL', '3. The API key', '4. Configure the workflow', '5. Start from the starter workflow', '6. Test', '7. Troubleshooting']) {
      expect(html).toContain(title);
    }
    expect(html).toContain('https://parley.example.com/api/v1/automation-executions/{id}/messages');
    expect(html).toContain('https://parley.example.com/api/v1/automation-executions/{id}');
    expect(html).toContain('http://n8n.internal:5678/webhook/parley-starter');
    expect(html).toContain('aria-label="Copy Parley base URL"');
    expect(html).toContain('aria-label="Copy Step messages endpoint (POST)"');
    expect(html).toContain('aria-label="Copy Status endpoint (PATCH)"');
    expect(html).toContain('Download</button>');
  });

  it('without a connection, the webhook URL is shown as a pattern', () => {
    const html = renderToStaticMarkup(<N8nGuideView values={values} n8nWebhookBase={null} download={null} />);
    expect(html).toContain('&lt;n8n address&gt;/webhook/parley-starter');
    expect(html).not.toContain('Your n8n&#x27;s webhook base');
  });
});
