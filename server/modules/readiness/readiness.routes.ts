/**
 * HTTP edge of common/api/readiness.ts (issue 16 §4): administrators only. GET runs every check
 * against the installation ("re-checked on load"); POST sends the test e-mail of the e-mail item.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { readinessView, sendTestEmailInput, sentTestEmail } from '../../../common/api/readiness';
import { requireUser } from '../../http/access';
import type { ReadinessService } from './readiness.service';

export const readinessRoutes: FastifyPluginAsyncZod<{ readinessService: ReadinessService }> = async (app, { readinessService: service }) => {
  const tags = ['readiness'];

  app.get(
    '/api/v1/readiness',
    {
      config: { access: ['admin'] },
      schema: {
        tags,
        summary: 'Production readiness: the 24 items checked against this installation now, the score and the counts (the run is stored)',
        response: { 200: readinessView },
      },
    },
    async (_request, reply) => reply.header('cache-control', 'no-store').send(await service.check()),
  );

  app.post(
    '/api/v1/readiness/test-email',
    {
      config: { access: ['admin'], rateLimit: { max: 10, timeWindow: 60_000 } },
      schema: {
        tags,
        summary: 'Send a test e-mail over SMTP (to the administrator, or `to`); the e-mail item is complete once the server accepted it',
        body: sendTestEmailInput,
        response: { 201: sentTestEmail },
      },
    },
    async (request, reply) => reply.status(201).send(await service.sendTestEmail(requireUser(request), request.body)),
  );
};
