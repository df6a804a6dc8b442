import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/errors';
import { answerDelivery, META_BODY_LIMIT } from './webhooks.http';
import type { WebhooksService } from './webhooks.service';

const handshakeQuery = z.object({
  'hub.mode': z.string().max(100).optional(),
  'hub.verify_token': z.string().max(1000).optional(),
  'hub.challenge': z.string().max(1000).optional(),
});

/**
 * `GET/POST /webhooks/{whatsapp,messenger,instagram}`. Registered as an encapsulated plugin whose
 * only content-type parser keeps the body as raw bytes: the signature is checked on exactly what
 * Meta signed, before anything is parsed (re-serialised JSON would not verify). No session, no
 * CSRF token: the signature is the authentication.
 */
export const webhooksRoutes: FastifyPluginAsyncZod<{ webhooks: WebhooksService }> = async (app, { webhooks }) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  for (const kind of webhooks.kinds) {
    app.get(
      `/webhooks/${kind}`,
      {
        config: { access: 'signature', csrf: false },
        schema: {
          tags: ['webhooks'],
          summary: `Meta's subscription handshake for ${kind}`,
          description: 'Answers `hub.challenge` as plain text when `hub.mode=subscribe` and `hub.verify_token` is an active channel\'s verify token; 403 otherwise.',
          querystring: handshakeQuery,
        },
      },
      async (request, reply) => {
        const challenge = await webhooks.verifyHandshake(kind, request.query);
        if (challenge === null) throw new AppError('FORBIDDEN', 'Verification failed');
        return reply.type('text/plain; charset=utf-8').send(challenge);
      },
    );

    // The app's HTTP server answers these before Fastify (webhooks.http.ts); this route documents
    // them and answers the same way when a request reaches Fastify itself (an inject, say).
    app.post(
      `/webhooks/${kind}`,
      {
        bodyLimit: META_BODY_LIMIT,
        helmet: false,
        config: { access: 'signature', csrf: false },
        schema: {
          tags: ['webhooks'],
          summary: `Meta webhook deliveries for ${kind}`,
          description:
            'Signed with `X-Hub-Signature-256: sha256=<HMAC-SHA256 of the raw body with the app secret>` (401 when missing or wrong). ' +
            'Answers 200 once the raw delivery and its processing job are durably stored; deliveries for unknown channels are acknowledged and dropped.',
        },
      },
      async (request, reply) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const header = request.headers['x-hub-signature-256'];
        const answer = await answerDelivery(webhooks, kind, raw, typeof header === 'string' ? header : undefined, request.log);
        reply.hijack();
        reply.raw.writeHead(answer.status, answer.headers);
        reply.raw.end(answer.body);
      },
    );
  }
};
