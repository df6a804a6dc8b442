import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { assignErrorFeedback, errorFeedback } from '../lib/feedback';
import { findTemplates } from './find-templates';
import { findWorkflows } from './find-workflows';
import { workflowKeys } from './keys';
import { assignTemplateClient } from './assign-template-client';
import { toggleWorkflowStatus } from './toggle-workflow-status';

const ID = '00000000-0000-4000-8000-000000000001';
const fetchMock = vi.fn<typeof fetch>();
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  vi.stubGlobal('document', { cookie: 'parley_csrf=token-1' });
});
afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
});

describe('search is a server operation', () => {
  it('asks for the kind and the search words (?q=) and keeps one cache entry per search', async () => {
    fetchMock.mockImplementation(() => Promise.resolve(json(200, { workflows: [], n8nSync: null })));
    expect(await findWorkflows('zapier', 'lead intake')).toEqual({ workflows: [], n8nSync: null });
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/v1/workflows?kind=zapier&q=lead+intake');
    await findWorkflows('n8n', '');
    expect(fetchMock.mock.calls[1]?.[0]).toBe('/api/v1/workflows?kind=n8n');
    expect(workflowKeys.list('n8n', 'a')).not.toEqual(workflowKeys.list('n8n', 'b'));
  });

  it('searches templates the same way', async () => {
    fetchMock.mockResolvedValue(json(200, { templates: [] }));
    await findTemplates('welcome');
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/v1/templates?q=welcome');
  });
});

describe('the toggle and assignment calls', () => {
  it("toggles on the server and shows n8n's 502 message as it is", async () => {
    const message = 'n8n refused to deactivate the workflow: n8n answered 401';
    fetchMock.mockResolvedValue(json(502, { error: { code: 'BAD_GATEWAY', message } }));
    const error = await toggleWorkflowStatus(ID).catch((e: unknown) => e);
    expect(fetchMock.mock.calls[0]?.[0]).toBe(`/api/v1/workflows/${ID}/toggle-status`);
    expect(fetchMock.mock.calls[0]?.[1]).toMatchObject({ method: 'POST', headers: { 'x-csrf-token': 'token-1' } });
    expect(error).toBeInstanceOf(ApiError);
    expect(errorFeedback(error, 'fallback')).toEqual({ title: 'Error', description: message });
  });

  it("posts the client id and turns the server's 409 into 'Client Already Assigned'", async () => {
    fetchMock.mockResolvedValue(
      json(409, { error: { code: 'CONFLICT', message: 'Acme is already assigned to this template', details: { title: 'Client Already Assigned' } } }),
    );
    const error = await assignTemplateClient({ id: ID, clientId: '00000000-0000-4000-8000-000000000002' }).catch((e: unknown) => e);
    expect(fetchMock.mock.calls[0]?.[1]).toMatchObject({ method: 'POST', body: JSON.stringify({ clientId: '00000000-0000-4000-8000-000000000002' }) });
    expect(assignErrorFeedback(error)).toEqual({ title: 'Client Already Assigned', description: 'Acme is already assigned to this template' });
  });
});
