/**
 * HTTP edge of the clients part of common/api/channels.ts. Reading: any signed-in user, scoped
 * (client users see their own client; another id answers 404). Creating and changing: admins.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { clientView, createClientInput, findClientsResponse, updateClientInput } from '../../../common/api/channels';
import { requireUser } from '../../http/access';
import type { ClientsService } from './clients.service';

const idParams = z.object({ id: z.uuid() });

export const clientsRoutes: FastifyPluginAsyncZod<{ clientsService: ClientsService }> = async (app, { clientsService: service }) => {
  const tags = ['clients'];

  app.get(
    '/api/v1/clients',
    {
      config: { access: 'signed-in', scope: 'clients:read' },
      schema: { tags, summary: 'Clients with their counts (client users: their own)', response: { 200: findClientsResponse } },
    },
    async (request) => ({ clients: await service.findClients(requireUser(request)) }),
  );

  app.post(
    '/api/v1/clients',
    {
      config: { access: ['admin'] },
      schema: { tags, summary: 'Create a client', body: createClientInput, response: { 201: clientView } },
    },
    async (request, reply) => reply.status(201).send(await service.createClient(request.body)),
  );

  app.get(
    '/api/v1/clients/:id',
    { config: { access: 'signed-in', scope: 'clients:read' }, schema: { tags, summary: 'One client', params: idParams, response: { 200: clientView } } },
    async (request) => service.getClient(requireUser(request), request.params.id),
  );

  app.patch(
    '/api/v1/clients/:id',
    {
      config: { access: ['admin'] },
      schema: { tags, summary: 'Change a client (only the fields given)', params: idParams, body: updateClientInput, response: { 200: clientView } },
    },
    async (request) => service.updateClient(request.params.id, request.body),
  );
};
