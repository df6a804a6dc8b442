import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFoundReport, permissionDeniedReport } from '../../../common/api/system';
import type { Engine } from '../../db/database';
import type { SecurityEventsRepository } from '../security/security-events.repository';


export const systemRoutes: FastifyPluginAsyncZod<{ engine: Engine; version: string; securityEvents: SecurityEventsRepository }> = async (
  app,
  { engine, version, securityEvents },
) => {
  app.get(
    '/api/v1/health',
    {
      config: { access: 'public' },
      schema: {
        tags: ['system'],
        summary: 'Liveness and the database engine in use',
        response: { 200: z.object({ status: z.literal('ok'), engine: z.enum(['pglite', 'postgres']), version: z.string() }) },
      },
    },
    () => ({ status: 'ok' as const, engine, version }),
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
