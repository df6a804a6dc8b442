/**
 * HTTP edge of common/api/n8n.ts: the n8n connection, the instance's workflows and executions,
 * the n8n tab's webhook Test and payload template, the starter workflow's download. Admin only.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  n8nConnectionResponse,
  n8nConnectionTest,
  n8nConnectionView,
  n8nExecution,
  n8nIdParams,
  n8nPayloadTemplateResponse,
  n8nWebhookTestInput,
  n8nWebhookTestResult,
  n8nWorkflow,
  n8nWorkflowsResponse,
  saveN8nConnectionInput,
} from '../../../common/api/n8n';
import { requireUser } from '../../http/access';
import type { N8nService } from './n8n.service';
import { STARTER_WORKFLOW_FILE, starterWorkflow } from './starter-workflow';

export const n8nRoutes: FastifyPluginAsyncZod<{ n8nService: N8nService }> = async (app, { n8nService: service }) => {
  const tags = ['n8n'];
  const admin = { access: ['admin'] as const };

  app.get(
    '/api/v1/n8n/connection',
    { config: admin, schema: { tags, summary: 'The n8n connection (the API key is never shown)', response: { 200: n8nConnectionResponse } } },
    async () => ({ connection: await service.getConnection() }),
  );

  app.put(
    '/api/v1/n8n/connection',
    {
      config: admin,
      schema: { tags, summary: 'Save the n8n base URL and API key, then test them', body: saveN8nConnectionInput, response: { 200: n8nConnectionView } },
    },
    async (request) => service.saveConnection(request.body, requireUser(request).id),
  );

  app.delete(
    '/api/v1/n8n/connection',
    { config: admin, schema: { tags, summary: 'Forget the n8n connection and its API key' } },
    async (_request, reply) => {
      await service.deleteConnection();
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/v1/n8n/connection/test',
    { config: admin, schema: { tags, summary: "Test the connection: the instance's workflow count or the exact error", response: { 200: n8nConnectionTest } } },
    async () => service.testConnection(),
  );

  app.get(
    '/api/v1/n8n/workflows',
    { config: admin, schema: { tags, summary: "The n8n instance's workflows, with their webhook URL", response: { 200: n8nWorkflowsResponse } } },
    async () => ({ workflows: await service.listWorkflows() }),
  );

  app.get(
    '/api/v1/n8n/workflows/:id',
    { config: admin, schema: { tags, summary: 'One n8n workflow', params: n8nIdParams, response: { 200: n8nWorkflow } } },
    async (request) => service.getWorkflow(request.params.id),
  );

  app.post(
    '/api/v1/n8n/workflows/:id/activate',
    { config: admin, schema: { tags, summary: 'Activate the workflow in n8n', params: n8nIdParams, response: { 200: n8nWorkflow } } },
    async (request) => service.setActive(request.params.id, true),
  );

  app.post(
    '/api/v1/n8n/workflows/:id/deactivate',
    { config: admin, schema: { tags, summary: 'Deactivate the workflow in n8n', params: n8nIdParams, response: { 200: n8nWorkflow } } },
    async (request) => service.setActive(request.params.id, false),
  );

  app.get(
    '/api/v1/n8n/executions/:id',
    { config: admin, schema: { tags, summary: "One n8n execution's status, times and error message", params: n8nIdParams, response: { 200: n8nExecution } } },
    async (request) => service.getExecution(request.params.id),
  );

  app.get(
    '/api/v1/n8n/payload-template',
    { config: admin, schema: { tags, summary: 'The payload a run sends (copyable; the webhook test sends it)', response: { 200: n8nPayloadTemplateResponse } } },
    async () => ({ template: service.payloadTemplate() }),
  );

  app.post(
    '/api/v1/n8n/webhook-test',
    {
      config: admin,
      schema: { tags, summary: 'POST the payload template to a webhook URL from the server; the real answer', body: n8nWebhookTestInput, response: { 200: n8nWebhookTestResult } },
    },
    async (request) => service.testWebhook(request.body.url, request.body.payload),
  );

  app.get(
    '/api/v1/n8n/starter-workflow',
    { config: admin, schema: { tags, summary: 'The starter workflow (n8n JSON, importable as is)', produces: ['application/json'] } },
    async (_request, reply) =>
      reply
        .header('content-type', 'application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="${STARTER_WORKFLOW_FILE}"`)
        .send(`${JSON.stringify(starterWorkflow(), null, 2)}\n`),
  );
};
