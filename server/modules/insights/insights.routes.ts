/**
 * HTTP edge of common/api/insights.ts and common/api/summary.ts. Any signed-in user (API keys with `insights:read`); a
 * client user reads only their own client's figures, whatever `clientId` the query names.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { insightsQuery, insightsView } from '../../../common/api/insights';
import { summaryQuery, summaryView } from '../../../common/api/summary';
import { requireUser } from '../../http/access';
import { scopeFor } from '../../http/scope';
import type { InsightsService } from './insights.service';

export const insightsRoutes: FastifyPluginAsyncZod<{ insightsService: InsightsService }> = async (app, { insightsService: service }) => {
  const tags = ['insights'];
  const read = { access: 'signed-in' as const, scope: 'insights:read' as const };

  app.get(
    '/api/v1/insights',
    {
      config: read,
      schema: {
        tags,
        summary: 'The period’s service levels against the period before, per agent and per client, and six months of trends (client users: their own client)',
        querystring: insightsQuery,
        response: { 200: insightsView },
      },
    },
    async (request) => service.overview(scopeFor(requireUser(request)), request.query),
  );

  app.get(
    '/api/v1/insights/export.csv',
    {
      config: read,
      schema: { tags, summary: 'The insights of the period as CSV (Export Data)', querystring: insightsQuery, produces: ['text/csv'] },
    },
    async (request, reply) => {
      const { filename, csv } = await service.exportCsv(scopeFor(requireUser(request)), request.query);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'no-store')
        .send(csv);
    },
  );

  app.get(
    '/api/v1/summary',
    {
      config: read,
      schema: {
        tags,
        summary: 'The AI Summary: the period’s overview, the topics customers raised by matched knowledge-base entry, activity by time of day and channel',
        querystring: summaryQuery,
        response: { 200: summaryView },
      },
    },
    async (request) => service.summary(scopeFor(requireUser(request)), request.query),
  );
};
