/**
 * HTTP edge of common/api/api-keys.ts. Sessions only (no `config.scope`): a key cannot create or
 * revoke keys. `/me/api-keys` is anyone's own keys; `/admin/api-keys` the service-account keys.
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiKeyIdParams, apiKeysResponse, createApiKeyInput, createdApiKey } from '../../../common/api/api-keys';
import { requireUser } from '../../http/access';
import type { ApiKeyActor, ApiKeysService } from './api-keys.service';

function actor(request: FastifyRequest): ApiKeyActor {
  const user = requireUser(request);
  const userAgent = request.headers['user-agent'];
  return { id: user.id, email: user.email, ip: request.ip, userAgent: typeof userAgent === 'string' ? userAgent.slice(0, 500) : null };
}

const CREATED = 'The key is in `key`, this once: only its sha256 is stored. Send it as `Authorization: Bearer <key>`.';

export const apiKeysRoutes: FastifyPluginAsyncZod<{ apiKeysService: ApiKeysService }> = async (app, { apiKeysService: service }) => {
  const tags = ['api keys'];
  const signedIn = { access: 'signed-in' as const };
  const admin = { access: ['admin'] as const };

  app.get(
    '/api/v1/me/api-keys',
    { config: signedIn, schema: { tags, summary: 'My API keys (revoked ones left out), newest first', response: { 200: apiKeysResponse } } },
    async (request) => ({ apiKeys: await service.findPersonalKeys(requireUser(request).id) }),
  );

  app.post(
    '/api/v1/me/api-keys',
    {
      config: signedIn,
      schema: { tags, summary: 'Create an API key acting as me', description: CREATED, body: createApiKeyInput, response: { 201: createdApiKey } },
    },
    async (request, reply) => reply.status(201).send(await service.createKey(actor(request), request.body, { service: false })),
  );

  app.delete(
    '/api/v1/me/api-keys/:id',
    { config: signedIn, schema: { tags, summary: 'Revoke one of my API keys (refused from the next request on)', params: apiKeyIdParams } },
    async (request, reply) => {
      await service.revokeKey(actor(request), request.params.id, { service: false });
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/v1/admin/api-keys',
    { config: admin, schema: { tags, summary: 'Service-account API keys, newest first', response: { 200: apiKeysResponse } } },
    async () => ({ apiKeys: await service.findServiceKeys() }),
  );

  app.post(
    '/api/v1/admin/api-keys',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Create a service-account API key (it acts as the administrator creating it)',
        description: CREATED,
        body: createApiKeyInput,
        response: { 201: createdApiKey },
      },
    },
    async (request, reply) => reply.status(201).send(await service.createKey(actor(request), request.body, { service: true })),
  );

  app.delete(
    '/api/v1/admin/api-keys/:id',
    { config: admin, schema: { tags, summary: 'Revoke a service-account API key', params: apiKeyIdParams } },
    async (request, reply) => {
      await service.revokeKey(actor(request), request.params.id, { service: true });
      return reply.status(204).send();
    },
  );
};
