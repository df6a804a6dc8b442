import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { outboxEmail, outboxResponse } from '../../../common/api/admin';
import type { Email } from '../../db/schema';
import type { EmailService } from './email.service';

function toSummary(e: Email) {
  return {
    id: e.id,
    kind: e.kind,
    to: e.toAddress,
    subject: e.subject,
    status: e.status,
    transport: e.transport,
    attempts: e.attempts,
    lastError: e.lastError,
    createdAt: e.createdAt.toISOString(),
    sentAt: e.sentAt ? e.sentAt.toISOString() : null,
  };
}

export const outboxRoutes: FastifyPluginAsyncZod<{ emailService: EmailService }> = async (app, { emailService }) => {
  app.get(
    '/api/v1/admin/outbox',
    {
      config: { access: ['admin'] },
      schema: {
        tags: ['admin'],
        summary: 'E-mails Parley sent or stored (newest first)',
        querystring: z.object({ limit: z.coerce.number().int().min(1).max(500).default(100) }),
        response: { 200: outboxResponse },
      },
    },
    async (request) => ({ emails: (await emailService.findEmails(request.query.limit)).map(toSummary) }),
  );

  app.get(
    '/api/v1/admin/outbox/:id',
    {
      config: { access: ['admin'] },
      schema: {
        tags: ['admin'],
        summary: 'One e-mail with its body',
        params: z.object({ id: z.uuid() }),
        response: { 200: outboxEmail },
      },
    },
    async (request) => {
      const email = await emailService.getEmail(request.params.id);
      return { ...toSummary(email), textBody: email.textBody, htmlBody: email.htmlBody };
    },
  );
};
