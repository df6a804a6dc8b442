/**
 * `POST /api/v1/channels/:channelId/messages`: the custom-platform channel's inbound endpoint.
 * This plugin is encapsulated so that only its route receives JSON as raw bytes: the signature is
 * checked on exactly the bytes that were signed, and only then is the body parsed and validated.
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API_SIGNATURE, apiInboundAccepted, apiInboundMessage } from '../../../common/api/channels';
import { cleanJsonBody } from '../../http/json-body';
import { AppError } from '../../lib/errors';
import type { ChannelWithSecrets } from '../channels';
import type { ApiChannelService } from './api-channel.service';

export interface ApiChannelRoutesOptions {
  apiChannels: ApiChannelService;
}

const SIGNATURE_DOC = `Authenticated by a signature instead of a session. Every request carries:

- \`X-Parley-Timestamp\`: the current time in Unix seconds. Requests more than ${API_SIGNATURE.toleranceSeconds / 60} minutes away from Parley's clock are refused (replay protection).
- \`X-Parley-Signature\`: \`sha256=\` followed by the lowercase hex HMAC-SHA256 of \`<timestamp>.<raw request body>\`, keyed with the channel's signing secret.

Sign the exact bytes you send (re-serialising the JSON after signing breaks the signature). An unknown or disabled channel and a missing, stale or wrong signature all answer 401, alike.

The same \`message.id\` sent again is stored once: the answer is then 200 with \`created: false\` and the ids of the message first stored (a new message answers 201).

Replies go the other way: Parley POSTs \`{"event": "message.created", "channelId", "conversationId", "contact": {"id"}, "message": {"id", "text", "senderType", "createdAt"}}\` to the channel's callback URL, signed with the same two headers over its own body. Answer 2xx to accept it; a network error, a timeout (10 s), 5xx or 429 (Retry-After honoured) is retried with exponential backoff; any other status fails the message at once. "Test" on the channel POSTs \`{"event": "ping", "channelId"}\` the same way.`;

export const apiChannelRoutes: FastifyPluginAsyncZod<ApiChannelRoutesOptions> = async (app, { apiChannels }) => {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  const verified = new WeakMap<FastifyRequest, ChannelWithSecrets>();
  const rawBodies = new WeakMap<FastifyRequest, Buffer>();

  app.post(
    '/api/v1/channels/:channelId/messages',
    {
      config: { access: 'signature', csrf: false },
      schema: {
        tags: ['custom platform'],
        summary: "A customer's message from your own platform (custom-platform channel)",
        description: SIGNATURE_DOC,
        params: z.object({ channelId: z.string().max(100).describe('The API channel id') }),
        headers: z.looseObject({
          [API_SIGNATURE.timestampHeader]: z.string().describe('Unix seconds when the request was signed'),
          [API_SIGNATURE.signatureHeader]: z.string().describe('sha256=<hex HMAC-SHA256 of "<timestamp>.<raw body>">'),
        }),
        body: apiInboundMessage,
        response: { 200: apiInboundAccepted.describe('Already received (same message.id)'), 201: apiInboundAccepted.describe('Stored') },
      },
      // Before validation: check the signature on the raw bytes, then parse them.
      preValidation: async (request) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const channel = await apiChannels.verify(
          request.params.channelId,
          { timestamp: request.headers[API_SIGNATURE.timestampHeader], signature: request.headers[API_SIGNATURE.signatureHeader] },
          raw,
        );
        let parsed: unknown;
        try {
          parsed = JSON.parse(raw.toString('utf8'));
        } catch (error) {
          throw new AppError('VALIDATION_ERROR', 'Request body is not valid JSON', { cause: error });
        }
        // The same rules as every JSON body (json-body.ts): lone surrogates become U+FFFD, U+0000 and deep nesting are a 400.
        request.body = cleanJsonBody(parsed) as typeof request.body;
        verified.set(request, channel);
        rawBodies.set(request, raw);
      },
    },
    async (request, reply) => {
      const channel = verified.get(request);
      const raw = rawBodies.get(request);
      if (!channel || !raw) throw new AppError('UNAUTHENTICATED', 'Invalid or missing signature');
      const result = await apiChannels.receive(channel, request.body, raw);
      return reply.status(result.created ? 201 : 200).send(result);
    },
  );
};
