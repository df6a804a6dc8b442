/**
 * HTTP edge of common/api/agents.ts. Reading: any signed-in user, scoped in the service (client
 * users their own client; another id answers 404). Changing: admins. Trying the agent: staff.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  agentStats,
  agentStatsQuery,
  agentView,
  findAgentsResponse,
  knowledgeArticle,
  knowledgeArticleInput,
  knowledgeEntry,
  knowledgeEntryInput,
  knowledgeExportQuery,
  knowledgeImportInput,
  knowledgeImportResult,
  knowledgeQuery,
  knowledgeView,
  tryAgentInput,
  tryAgentResult,
  updateAgentInput,
} from '../../../common/api/agents';
import { requireUser } from '../../http/access';
import type { AgentPolicy } from './agents.policy';
import type { AgentsService } from './agents.service';

const clientParams = z.object({ clientId: z.uuid() });
const idParams = z.object({ id: z.uuid() });

export const agentsRoutes: FastifyPluginAsyncZod<{ agentsService: AgentsService; agentPolicy: AgentPolicy }> = async (app, { agentsService: service, agentPolicy }) => {
  const tags = ['agents'];
  const admin = { access: ['admin'] as const };
  const signedIn = { access: 'signed-in' as const };
  const read = { ...signedIn, scope: 'agents:read' as const };

  app.get('/api/v1/agents', { config: read, schema: { tags, summary: "Every client's agent (client users: their own)", response: { 200: findAgentsResponse } } }, async (request) => ({
    agents: await service.findAgents(requireUser(request)),
  }));

  app.get(
    '/api/v1/clients/:clientId/agent',
    { config: read, schema: { tags, summary: "A client's agent", params: clientParams, response: { 200: agentView } } },
    async (request) => service.getAgent(requireUser(request), request.params.clientId),
  );

  app.get(
    '/api/v1/clients/:clientId/agent/stats',
    {
      config: read,
      schema: {
        tags,
        summary: "A client's agent over the last `days` days (default 7): answers by engine, hand-offs, LLM tokens and cost, cost per automated resolution",
        params: clientParams,
        querystring: agentStatsQuery,
        response: { 200: agentStats },
      },
    },
    async (request) => service.agentStats(requireUser(request), request.params.clientId, request.query.days),
  );

  app.put(
    '/api/v1/clients/:clientId/agent',
    { config: admin, schema: { tags, summary: "Configure a client's agent (only the fields given change)", params: clientParams, body: updateAgentInput, response: { 200: agentView } } },
    async (request) => service.updateAgent(request.params.clientId, request.body),
  );

  app.post(
    '/api/v1/clients/:clientId/agent/try',
    {
      config: { access: ['admin', 'manager'] as const },
      schema: { tags, summary: 'What the agent would answer, and what the policy would do with it', params: clientParams, body: tryAgentInput, response: { 200: tryAgentResult } },
    },
    async (request) => agentPolicy.tryAnswer(request.params.clientId, request.body.message),
  );

  app.get(
    '/api/v1/clients/:clientId/knowledge',
    { config: read, schema: { tags, summary: "A client's knowledge base and its training", params: clientParams, querystring: knowledgeQuery, response: { 200: knowledgeView } } },
    async (request) => service.getKnowledge(requireUser(request), request.params.clientId, request.query.search || undefined),
  );

  app.post(
    '/api/v1/clients/:clientId/knowledge/entries',
    { config: admin, schema: { tags, summary: 'Add an FAQ entry (retrains)', params: clientParams, body: knowledgeEntryInput, response: { 201: knowledgeEntry } } },
    async (request, reply) => reply.status(201).send(await service.createEntry(request.params.clientId, request.body)),
  );

  app.put(
    '/api/v1/knowledge/entries/:id',
    { config: admin, schema: { tags, summary: 'Change an FAQ entry (retrains)', params: idParams, body: knowledgeEntryInput, response: { 200: knowledgeEntry } } },
    async (request) => service.updateEntry(request.params.id, request.body),
  );

  app.delete(
    '/api/v1/knowledge/entries/:id',
    { config: admin, schema: { tags, summary: 'Delete an FAQ entry (retrains)', params: idParams } },
    async (request, reply) => {
      await service.deleteEntry(request.params.id);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/v1/clients/:clientId/knowledge/articles',
    { config: admin, schema: { tags, summary: 'Add an article (retrains)', params: clientParams, body: knowledgeArticleInput, response: { 201: knowledgeArticle } } },
    async (request, reply) => reply.status(201).send(await service.createArticle(request.params.clientId, request.body)),
  );

  app.put(
    '/api/v1/knowledge/articles/:id',
    { config: admin, schema: { tags, summary: 'Change an article (retrains)', params: idParams, body: knowledgeArticleInput, response: { 200: knowledgeArticle } } },
    async (request) => service.updateArticle(request.params.id, request.body),
  );

  app.delete(
    '/api/v1/knowledge/articles/:id',
    { config: admin, schema: { tags, summary: 'Delete an article (retrains)', params: idParams } },
    async (request, reply) => {
      await service.deleteArticle(request.params.id);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/v1/clients/:clientId/knowledge/import',
    {
      config: admin,
      bodyLimit: 6 * 1024 * 1024,
      schema: { tags, summary: 'Import FAQ entries from CSV or JSON (replace or append; a bad row stores nothing)', params: clientParams, body: knowledgeImportInput, response: { 200: knowledgeImportResult } },
    },
    async (request) => {
      const result = await service.importKnowledge(request.params.clientId, request.body);
      return { entries: result.entries, questions: result.questions, training: await service.training(request.params.clientId) };
    },
  );

  app.get(
    '/api/v1/clients/:clientId/knowledge/export',
    { config: read, schema: { tags, summary: 'The FAQ as CSV or JSON (the import formats)', params: clientParams, querystring: knowledgeExportQuery, produces: ['text/csv', 'application/json'] } },
    async (request, reply) => {
      const file = await service.exportKnowledge(requireUser(request), request.params.clientId, request.query.format);
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        .header('cache-control', 'no-store')
        .send(file.body);
    },
  );
};
