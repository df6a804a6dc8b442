import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { N8nConnectionView } from '@common/api/n8n';
import { ConnectionFormView, ConnectionTestView } from './n8n-connection-card';

const SECRET = 'n8n_api_0123456789abcdef';
const saved: N8nConnectionView = {
  baseUrl: 'http://n8n.internal:5678',
  hasApiKey: true,
  updatedBy: { id: '6f1c2a40-0000-4b5e-9a51-5a7e1e000001', name: 'Ada Admin' },
  createdAt: '2026-11-24T10:00:00.000Z',
  updatedAt: '2026-11-24T10:00:00.000Z',
  lastTest: { ok: true, message: 'Connected to n8n: 3 workflows', workflowCount: 3, testedAt: '2026-11-24T10:00:01.000Z' },
  webhookBaseUrl: 'http://n8n.internal:5678/webhook/',
};

function render(connection: N8nConnectionView | null) {
  return renderToStaticMarkup(
    <QueryClientProvider client={new QueryClient()}>
      <ConnectionFormView connection={connection} />
    </QueryClientProvider>,
  );
}

describe('the n8n connection form', () => {
  it('never shows the API key: "Saved", an empty field, even if a key reached the browser', () => {
    // A server that leaked the key (it does not) still would not get it on screen.
    const html = render({ ...saved, apiKey: SECRET } as N8nConnectionView);
    expect(html).toContain('Saved');
    expect(html).toContain('A key is saved (never shown)');
    expect(html).not.toContain(SECRET);
    const keyInput = /<input[^>]*type="password"[^>]*>/u.exec(html)?.[0] ?? '';
    expect(keyInput).not.toBe('');
    expect(keyInput).not.toMatch(/value="[^"]+"/u);
  });

  it('asks for a key when none is saved', () => {
    const html = render(null);
    expect(html).toContain('None saved');
    expect(html).toContain('Settings → n8n API');
  });
});

describe('the connection test', () => {
  it("shows the instance's workflow count, or n8n's exact error", () => {
    expect(renderToStaticMarkup(<ConnectionTestView test={saved.lastTest!} />)).toContain('Connected to n8n: 3 workflows');
    const failed = renderToStaticMarkup(
      <ConnectionTestView test={{ ok: false, message: 'n8n answered 401: unauthorized', workflowCount: null, testedAt: '2026-11-24T10:00:01.000Z' }} />,
    );
    expect(failed).toContain('n8n answered 401: unauthorized');
    expect(failed).toContain('text-destructive');
  });
});
