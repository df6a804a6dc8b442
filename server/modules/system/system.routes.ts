import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthReport, notFoundReport, permissionDeniedReport } from '../../../common/api/system';
import type { SecurityEventsService } from '../security';
import type { HealthService } from './health.service';

export const systemRoutes: FastifyPluginAsyncZod<{ health: HealthService; securityEvents: SecurityEventsService }> = async (
  app,
  { health, securityEvents },
) => {
  app.get(
    '/api/v1/health',
    {
      config: { access: 'public' },
      schema: {
        tags: ['system'],
        summary: 'Health for load balancers: database write, disk space (embedded), job backlog; 503 when a check fails',
        response: { 200: healthReport, 503: healthReport },
      },
    },
    async (_request, reply) => {
      const report = await health.report();
      return reply
        .status(report.status === 'failing' ? 503 : 200)
        .header('cache-control', 'no-store')
        .send(report);
    },
  );

  app.post(
    '/api/v1/telemetry/not-found',
    {
      config: { access: 'public', rateLimit: { max: 60, timeWindow: 60_000 } },
      schema: { tags: ['system'], summary: 'Log an unknown page path reached inside the web app', body: notFoundReport },
    },
    async (request, reply) => {
      request.log.warn({ path: request.body.path, clientSide: true }, 'page not found');
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/v1/telemetry/permission-denied',
    {
      config: { access: 'signed-in', rateLimit: { max: 60, timeWindow: 60_000 } },
      schema: { tags: ['system'], summary: 'Record a signed-in user opening a screen their role may not use', body: permissionDeniedReport },
    },
    async (request, reply) => {
      const user = request.user;
      await securityEvents.record({
        type: 'access.permission_denied',
        severity: 'warning',
        userId: user?.id ?? null,
        email: user?.email ?? null,
        ipAddress: request.ip,
        details: { role: user?.role, path: request.body.path, requiredRole: request.body.requiredRole },
      });
      return reply.status(204).send();
    },
  );
};
