/**
 * HTTP edge of common/api/reports.ts and common/api/summary-shares.ts: the report files (the same
 * access and tenant scope as the pages they come from: any signed-in user, API keys with
 * `insights:read`, a client user only ever their own client), the AI Summary's share links
 * (signed-in sessions only: an API key cannot make or revoke one) and the public read of a link,
 * rate-limited per address like the other public routes.
 */
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { insightsReportQuery } from '../../../common/api/reports';
import { summaryQuery } from '../../../common/api/summary';
import {
  createdSummaryShare,
  createSummaryShareInput,
  sharedSummaryParams,
  sharedSummaryQuery,
  sharedSummaryView,
  summaryShare,
  summaryShareParams,
  summarySharesResponse,
} from '../../../common/api/summary-shares';
import { requireUser } from '../../http/access';
import { scopeFor } from '../../http/scope';
import type { ReportFile, ReportsService } from './reports.service';

export interface ReportsRoutesOptions {
  reportsService: ReportsService;
  /** Requests per minute and address to the public share link read. */
  publicRateLimitPerMinute: number;
}

function sendFile(reply: FastifyReply, file: ReportFile<Buffer | string>, contentType: string) {
  return reply
    .header('content-type', contentType)
    .header('content-disposition', `attachment; filename="${file.filename}"`)
    .header('cache-control', 'no-store')
    .send(file.body);
}

export const reportsRoutes: FastifyPluginAsyncZod<ReportsRoutesOptions> = async (app, { reportsService: service, publicRateLimitPerMinute }) => {
  const tags = ['insights'];
  const read = { access: 'signed-in' as const, scope: 'insights:read' as const };

  app.get(
    '/api/v1/insights/report.pdf',
    {
      config: read,
      schema: {
        tags,
        summary: 'The insights of the period as a PDF report: the four cards against the period before, agents, clients, six months of trends',
        querystring: insightsReportQuery,
        produces: ['application/pdf'],
      },
    },
    async (request, reply) => sendFile(reply, await service.insightsPdf(scopeFor(requireUser(request)), request.query), 'application/pdf'),
  );

  app.get(
    '/api/v1/summary/report.pdf',
    {
      config: read,
      schema: { tags, summary: 'The AI Summary of the period as a PDF report', querystring: summaryQuery, produces: ['application/pdf'] },
    },
    async (request, reply) => sendFile(reply, await service.summaryPdf(scopeFor(requireUser(request)), request.query), 'application/pdf'),
  );

  app.get(
    '/api/v1/summary/export.csv',
    {
      config: read,
      schema: { tags, summary: 'The AI Summary of the period as CSV (overview, topics, hours, channels)', querystring: summaryQuery, produces: ['text/csv'] },
    },
    async (request, reply) => sendFile(reply, await service.summaryCsv(scopeFor(requireUser(request)), request.query), 'text/csv; charset=utf-8'),
  );

  app.post(
    '/api/v1/summary/shares',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: 'Make a read-only link to the AI Summary of a period (frozen now) that opens without sign-in until it expires or is revoked; the link is shown once',
        body: createSummaryShareInput,
        response: { 201: createdSummaryShare },
      },
    },
    async (request, reply) => reply.status(201).send(await service.createShare(requireUser(request), request.body)),
  );

  app.get(
    '/api/v1/summary/shares',
    {
      config: { access: 'signed-in' },
      schema: { tags, summary: 'My share links of the AI Summary, newest first (administrators: everyone’s)', response: { 200: summarySharesResponse } },
    },
    async (request) => ({ shares: await service.listShares(requireUser(request)) }),
  );

  app.delete(
    '/api/v1/summary/shares/:id',
    {
      config: { access: 'signed-in' },
      schema: { tags, summary: 'Revoke a share link (my own; administrators any)', params: summaryShareParams, response: { 200: summaryShare } },
    },
    async (request) => service.revokeShare(requireUser(request), request.params.id),
  );

  app.get(
    '/api/v1/shared/summary/:token',
    {
      config: { access: 'public', rateLimit: { max: publicRateLimitPerMinute, timeWindow: 60_000 } },
      schema: {
        tags,
        summary: 'The AI Summary a share link shows, without sign-in (404 for a link that is unknown, expired or revoked)',
        params: sharedSummaryParams,
        querystring: sharedSummaryQuery,
        response: { 200: sharedSummaryView },
      },
    },
    async (request, reply) => {
      const view = await service.sharedSummary(request.params.token, request.query);
      return reply.header('cache-control', 'no-store').header('x-robots-tag', 'noindex, nofollow').send(view);
    },
  );
};
