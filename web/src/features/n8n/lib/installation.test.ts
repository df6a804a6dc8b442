import { describe, expect, it } from 'vitest';
import { n8nPayloadTemplate } from '@common/api/n8n';
import { installationValues, publicUrlFromTemplate } from './installation';

describe("the guide's installation values", () => {
  it("uses the API's public URL, as the payload template's callback URLs carry it", () => {
    const template = n8nPayloadTemplate('https://parley.example.com', new Date('2026-11-25T00:00:00Z'));
    expect(publicUrlFromTemplate(template)).toBe('https://parley.example.com');
    expect(installationValues(template, 'http://localhost:5173')).toEqual({
      baseUrl: 'https://parley.example.com',
      messagesUrl: 'https://parley.example.com/api/v1/automation-executions/{id}/messages',
      statusUrl: 'https://parley.example.com/api/v1/automation-executions/{id}',
    });
  });

  it("keeps a path prefix of the public URL", () => {
    const template = n8nPayloadTemplate('https://example.com/parley', new Date());
    expect(installationValues(template, 'https://example.com').statusUrl).toBe('https://example.com/parley/api/v1/automation-executions/{id}');
  });

  it("falls back to the page's origin without a template (not an admin, not loaded yet)", () => {
    expect(installationValues(undefined, 'http://localhost:4173/').messagesUrl).toBe('http://localhost:4173/api/v1/automation-executions/{id}/messages');
    expect(publicUrlFromTemplate({ callback: { messages_url: 42 } })).toBeNull();
    expect(publicUrlFromTemplate({})).toBeNull();
  });
});
