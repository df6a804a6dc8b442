import { describe, expect, it } from 'vitest';
import { normaliseBaseUrl, webhookOf } from './n8n.service';

describe('n8n base URL and webhook URL', () => {
  it.each([
    ['http://n8n.internal:5678', 'http://n8n.internal:5678'],
    ['  https://N8N.example.com/  ', 'https://n8n.example.com'],
    ['https://tools.example.com/n8n/', 'https://tools.example.com/n8n'],
    ['http://10.0.0.5:5678/api/v1', 'http://10.0.0.5:5678'],
    ['http://127.0.0.1:5678/webhook/', 'http://127.0.0.1:5678'],
    ['https://example.com:443/webhook-test', 'https://example.com'],
  ])('%s is stored as %s', (input, stored) => {
    expect(normaliseBaseUrl(input)).toEqual({ url: stored });
  });

  it.each([
    ['n8n.internal:5678', 'Only http and https URLs are allowed'],
    ['http://n8n.internal/?a=1', "Enter only n8n's address, without a query or fragment"],
    ['http://[::ffff:169.254.169.254]', 'Refused: the address resolves to the cloud metadata service (::ffff:a9fe:a9fe)'],
    ['http://0.0.0.0:5678', 'Refused: the address resolves to the unspecified address (0.0.0.0)'],
  ])('%s is refused', (input, error) => {
    expect(normaliseBaseUrl(input)).toEqual({ error });
  });

  it('takes the first enabled Webhook node that accepts POST', () => {
    const node = (parameters: Record<string, unknown>, disabled = false) => ({ type: 'n8n-nodes-base.webhook', disabled, parameters });
    expect(webhookOf('http://n', [node({ httpMethod: 'GET', path: 'a' }), node({ httpMethod: 'POST', path: 'b' }, true), node({ httpMethod: 'POST', path: '/c/:id' })])).toEqual({
      url: 'http://n/webhook/c/:id',
      path: 'c/:id',
    });
    expect(webhookOf('http://n', [node({ path: 'default-is-get' })])).toBeNull();
    expect(webhookOf('http://n', [node({ httpMethod: 'POST', path: '' })])).toBeNull();
    expect(webhookOf('http://n', 'not nodes')).toBeNull();
  });
});
