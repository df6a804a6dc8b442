import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { API_SCOPE_LABELS, API_SCOPES } from '@common/api/api-scopes';
import type { ApiKeyView } from '@common/api/api-keys';
import { ApiKeyList, expiryText, lastUsedText } from './api-key-list';
import { CreateApiKeyFields, expiresAtFor } from './create-api-key-dialog';
import { NewApiKey } from './new-api-key';

const NOW = new Date('2026-11-25T12:00:00.000Z');
const KEY = `pk_live_0123456789ab_${'S'.repeat(43)}`;
const apiKey: ApiKeyView = {
  id: '6f1c2a40-0000-4b5e-9a51-5a7e1e000001',
  name: 'Zapier',
  prefix: 'pk_live_0123456789ab',
  scopes: ['conversations:read', 'messages:send'],
  service: false,
  owner: { id: '6f1c2a40-0000-4b5e-9a51-5a7e1e000002', name: 'Ada Admin', email: 'ada@example.com' },
  createdAt: '2026-11-20T10:00:00.000Z',
  expiresAt: '2027-02-20T10:00:00.000Z',
  lastUsedAt: '2026-11-25T11:00:00.000Z',
  lastUsedIp: '203.0.113.7',
};

const render = (node: ReactNode) => renderToStaticMarkup(<QueryClientProvider client={new QueryClient()}>{node}</QueryClientProvider>);

describe('the API key list', () => {
  it('shows name, prefix, scope labels, creation, last use with the address, and expiry — never a secret', () => {
    const html = render(<ApiKeyList kind="personal" apiKeys={[apiKey]} now={NOW} />);
    expect(html).toContain('Zapier');
    expect(html).toContain('pk_live_0123456789ab…');
    expect(html).toContain(API_SCOPE_LABELS['conversations:read']);
    expect(html).toContain(API_SCOPE_LABELS['messages:send']);
    expect(html).toContain('203.0.113.7');
    expect(html).toContain('Expires ');
    expect(html).toContain('aria-label="Revoke the API key “Zapier”"');
    expect(html).not.toContain('Ada Admin'); // personal keys: the owner is you
    expect(html).toContain('break-all'); // a long prefix wraps at 390 px
    // So do long scope labels.
    const badge = new RegExp(`<span data-slot="badge" class="([^"]*)">${API_SCOPE_LABELS['conversations:read']}</span>`, 'u').exec(html)?.[1] ?? '';
    expect(badge).toContain('whitespace-normal');
    expect(badge).not.toContain('whitespace-nowrap');
  });

  it('service keys say who they act as; expired keys are marked', () => {
    const html = render(<ApiKeyList kind="service" apiKeys={[{ ...apiKey, service: true, expiresAt: '2026-11-01T00:00:00.000Z' }]} now={NOW} />);
    expect(html).toContain('by Ada Admin');
    expect(html).toContain('Expired');
  });

  it('says so when there is no key', () => {
    expect(render(<ApiKeyList kind="personal" apiKeys={[]} />)).toContain('No API keys yet.');
  });

  it('words last use and expiry', () => {
    expect(lastUsedText({ lastUsedAt: null, lastUsedIp: null })).toBe('Never used');
    expect(lastUsedText(apiKey, NOW)).toBe('Last used 1 hour ago from 203.0.113.7');
    expect(expiryText(null)).toEqual({ text: 'Never expires', expired: false });
    expect(expiryText('2026-11-25T11:59:00.000Z', NOW).expired).toBe(true);
  });
});

describe('a new key', () => {
  it('is shown once with a copy button and says it will not be shown again', () => {
    const html = render(<NewApiKey created={{ apiKey, key: KEY }} />);
    expect(html).toContain(KEY);
    expect(html).toContain('aria-label="Copy the API key"');
    expect(html).toContain('You won&#x27;t see it again');
    expect(html).toContain('break-all');
  });
});

describe('the create form', () => {
  it('offers every scope as a labelled checkbox, and shows field errors', () => {
    const html = render(
      <CreateApiKeyFields name="" expiry="90" scopes={['contacts:read']} errors={{ name: 'Please enter a name', scopes: 'Choose at least one scope' }} />,
    );
    for (const scope of API_SCOPES) expect(html).toContain(API_SCOPE_LABELS[scope]);
    expect(html.match(/type="checkbox"/gu)?.length).toBe(API_SCOPES.length);
    expect(html.match(/checked=""/gu)?.length).toBe(1);
    expect(html).toContain('Please enter a name');
    expect(html).toContain('Choose at least one scope');
  });

  it('turns the expiry choice into a date, or none', () => {
    expect(expiresAtFor('never', NOW)).toBeNull();
    expect(expiresAtFor('30', NOW)).toBe('2026-12-25T12:00:00.000Z');
  });
});
