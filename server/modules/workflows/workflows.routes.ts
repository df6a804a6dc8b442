/**
 * HTTP edge of common/api/workflows.ts: n8n workflows, Zapier zaps and templates. Administrators
 * only (the access list answers 403 to everyone else).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  assignClientInput,
  clientAssignmentParams,
  createTemplateInput,
  createWorkflowInput,
  findTemplatesQuery,
  findTemplatesResponse,
  findWorkflowsQuery,
  findWorkflowsResponse,
  idParams,
  importN8nWorkflowsInput,
  importN8nWorkflowsResponse,
  n8nWorkflowJson,
  templateView,
  updateTemplateInput,
  updateWorkflowInput,
  workflowView,
} from '../../../common/api/workflows';
import { requireUser } from '../../http/access';
import type { WorkflowsService } from './workflows.service';

const admin = { access: ['admin'] as const };

export const workflowsRoutes: FastifyPluginAsyncZod<{ workflowsService: WorkflowsService }> = async (app, { workflowsService: service }) => {
  const tags = ['workflows'];

  app.get(
    '/api/v1/workflows',
    {
      config: admin,
      schema: { tags, summary: 'n8n workflows and zaps, newest first; q searches name and description', querystring: findWorkflowsQuery, response: { 200: findWorkflowsResponse } },
    },
    async (request) => service.findWorkflowsSynced(request.query),
  );

  app.post(
    '/api/v1/workflows/import-n8n',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Import from n8n: one workflow of the connected instance by its n8n id, or every one with a Webhook node; creates or refreshes the linked records',
        body: importN8nWorkflowsInput,
        response: { 200: importN8nWorkflowsResponse },
      },
    },
    async (request) => service.importFromN8n(request.body, requireUser(request).id),
  );

  app.post(
    '/api/v1/workflows',
    { config: admin, schema: { tags, summary: 'Create a workflow or zap (draft)', body: createWorkflowInput, response: { 201: workflowView } } },
    async (request, reply) => reply.status(201).send(await service.createWorkflow(request.body, requireUser(request).id)),
  );

  app.get(
    '/api/v1/workflows/:id',
    { config: admin, schema: { tags, summary: 'One workflow or zap', params: idParams, response: { 200: workflowView } } },
    async (request) => service.getWorkflow(request.params.id),
  );

  app.patch(
    '/api/v1/workflows/:id',
    {
      config: admin,
      schema: { tags, summary: 'Change a workflow or zap (only the fields given)', params: idParams, body: updateWorkflowInput, response: { 200: workflowView } },
    },
    async (request) => service.updateWorkflow(request.params.id, request.body),
  );

  app.delete(
    '/api/v1/workflows/:id',
    { config: admin, schema: { tags, summary: 'Delete a workflow or zap (a linked one stays in n8n)', params: idParams } },
    async (request, reply) => {
      await service.deleteWorkflow(request.params.id);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/v1/workflows/:id/toggle-status',
    {
      config: admin,
      schema: { tags, summary: 'Active becomes paused, anything else active (a linked workflow is switched in n8n first)', params: idParams, response: { 200: workflowView } },
    },
    async (request) => service.toggleWorkflowStatus(request.params.id),
  );

  app.post(
    '/api/v1/workflows/:id/clients',
    {
      config: admin,
      schema: { tags, summary: 'Assign a client (409 when assigned already)', params: idParams, body: assignClientInput, response: { 201: workflowView } },
    },
    async (request, reply) => reply.status(201).send(await service.assignWorkflowClient(request.params.id, request.body.clientId)),
  );

  app.delete(
    '/api/v1/workflows/:id/clients/:clientId',
    { config: admin, schema: { tags, summary: 'Remove a client', params: clientAssignmentParams, response: { 200: workflowView } } },
    async (request) => service.removeWorkflowClient(request.params.id, request.params.clientId),
  );

  // Templates

  app.get(
    '/api/v1/templates',
    {
      config: admin,
      schema: { tags, summary: 'Templates, newest first; q searches name and description', querystring: findTemplatesQuery, response: { 200: findTemplatesResponse } },
    },
    async (request) => ({ templates: await service.findTemplates(request.query) }),
  );

  app.post(
    '/api/v1/templates',
    { config: admin, schema: { tags, summary: 'Create a template (draft)', body: createTemplateInput, response: { 201: templateView } } },
    async (request, reply) => reply.status(201).send(await service.createTemplate(request.body, requireUser(request).id)),
  );

  app.get(
    '/api/v1/templates/:id',
    { config: admin, schema: { tags, summary: 'One template', params: idParams, response: { 200: templateView } } },
    async (request) => service.getTemplate(request.params.id),
  );

  app.get(
    '/api/v1/templates/:id/n8n-workflow',
    { config: admin, schema: { tags, summary: "The template's importable n8n workflow", params: idParams, response: { 200: n8nWorkflowJson } } },
    async (request, reply) => {
      const workflow = await service.getTemplateN8nWorkflow(request.params.id);
      return reply.header('content-disposition', 'attachment; filename="n8n-workflow.json"').send(workflow);
    },
  );

  app.patch(
    '/api/v1/templates/:id',
    {
      config: admin,
      schema: { tags, summary: 'Change a template (only the fields given)', params: idParams, body: updateTemplateInput, response: { 200: templateView } },
    },
    async (request) => service.updateTemplate(request.params.id, request.body),
  );

  app.delete(
    '/api/v1/templates/:id',
    { config: admin, schema: { tags, summary: 'Delete a template (the automations made from it stay)', params: idParams } },
    async (request, reply) => {
      await service.deleteTemplate(request.params.id);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/v1/templates/:id/toggle-status',
    { config: admin, schema: { tags, summary: 'Active becomes paused, anything else active', params: idParams, response: { 200: templateView } } },
    async (request) => service.toggleTemplateStatus(request.params.id),
  );

  app.post(
    '/api/v1/templates/:id/clone',
    { config: admin, schema: { tags, summary: "A draft copy named '{name} (Copy)' with no clients", params: idParams, response: { 201: templateView } } },
    async (request, reply) => reply.status(201).send(await service.cloneTemplate(request.params.id, requireUser(request).id)),
  );

  app.post(
    '/api/v1/templates/:id/clients',
    {
      config: admin,
      schema: {
        tags,
        summary: "Assign a client: creates the client's automation from the template (409 when assigned already)",
        params: idParams,
        body: assignClientInput,
        response: { 201: templateView },
      },
    },
    async (request, reply) => reply.status(201).send(await service.assignTemplateClient(request.params.id, request.body.clientId, requireUser(request).id)),
  );

  app.delete(
    '/api/v1/templates/:id/clients/:clientId',
    { config: admin, schema: { tags, summary: 'Remove a client (its automation stays)', params: clientAssignmentParams, response: { 200: templateView } } },
    async (request) => service.removeTemplateClient(request.params.id, request.params.clientId),
  );
};
