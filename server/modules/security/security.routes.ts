/**
 * HTTP edge of common/api/security.ts: Admin Settings → Security. Administrators, with a session
 * (no `config.scope`: API keys cannot call these).
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminSessionsQuery,
  adminSessionsResponse,
  securityEventsExportQuery,
  securityEventsQuery,
  securityEventsResponse,
  securitySettings,
  sessionParams,
} from '../../../common/api/security';
import { requireUser } from '../../http/access';
import type { AdminCaller, SecurityAdminService } from './security-admin.service';

function callerOf(request: FastifyRequest): AdminCaller {
  const user = requireUser(request);
  const agent = request.headers['user-agent'];
  return { id: user.id, email: user.email, sessionId: user.sessionId, ip: request.ip, userAgent: typeof agent === 'string' ? agent.slice(0, 500) : null };
}

export const securityRoutes: FastifyPluginAsyncZod<{ securityAdminService: SecurityAdminService }> = async (app, { securityAdminService: service }) => {
  const tags = ['security'];
  const admin = { access: ['admin'] as const };

  app.get(
    '/api/v1/admin/security/settings',
    { config: admin, schema: { tags, summary: 'The two-factor requirement and the session lifetime', response: { 200: securitySettings } } },
    async () => service.getSettings(),
  );

  app.put(
    '/api/v1/admin/security/settings',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Save the two-factor requirement and the session lifetime (a shorter lifetime also shortens open sessions)',
        body: securitySettings,
        response: { 200: securitySettings },
      },
    },
    async (request) => service.updateSettings(callerOf(request), request.body),
  );

  app.get(
    '/api/v1/admin/security/events',
    {
      config: admin,
      schema: { tags, summary: 'The audit log of security events, newest first, filtered and paged', querystring: securityEventsQuery, response: { 200: securityEventsResponse } },
    },
    async (request) => service.findEvents(request.query),
  );

  app.get(
    '/api/v1/admin/security/events.csv',
    { config: admin, schema: { tags, summary: 'The filtered audit log as CSV (newest first, at most 10,000 rows)', querystring: securityEventsExportQuery, produces: ['text/csv'] } },
    async (request, reply) => {
      const { filename, csv } = await service.exportEvents(request.query);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'no-store')
        .send(csv);
    },
  );

  app.get(
    '/api/v1/admin/security/sessions',
    {
      config: admin,
      schema: { tags, summary: "Every user's live sessions, most recently active first", querystring: adminSessionsQuery, response: { 200: adminSessionsResponse } },
    },
    async (request) => service.findSessions(callerOf(request), request.query),
  );

  app.delete(
    '/api/v1/admin/security/sessions/:id',
    { config: admin, schema: { tags, summary: 'Sign a session out at once', params: sessionParams } },
    async (request, reply) => {
      await service.revokeSession(callerOf(request), request.params.id);
      return reply.status(204).send();
    },
  );
};
