/**
 * HTTP edge of the clients part of common/api/channels.ts. Reading: any signed-in user, scoped
 * (client users see their own client; another id answers 404). Creating and changing: admins — a
 * status change deactivates or reactivates the client (ClientStateService). Pausing and resuming
 * its automation: admins, managers and the client's own users.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { clientView, createClientInput, findClientsResponse, setClientAutomationInput, updateClientInput } from '../../../common/api/channels';
import { requireUser } from '../../http/access';
import type { ClientStateService } from './client-state.service';
import type { ClientsService } from './clients.service';

const idParams = z.object({ id: z.uuid() });

export const clientsRoutes: FastifyPluginAsyncZod<{ clientsService: ClientsService; clientStateService: ClientStateService }> = async (
  app,
  { clientsService: service, clientStateService: state },
) => {
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
      schema: {
        tags,
        summary: "Change a client (only the fields given); status inactive deactivates it (its users' sessions revoked, its channels stop accepting)",
        params: idParams,
        body: updateClientInput,
        response: { 200: clientView },
      },
    },
    async (request) => state.updateClient(requireUser(request), request.params.id, request.body),
  );

  app.put(
    '/api/v1/clients/:id/automation',
    {
      config: { access: ['admin', 'manager', 'client'] },
      schema: {
        tags,
        summary: "Pause or resume the client's automation (its AI agent and event-triggered automations); client users: their own client",
        params: idParams,
        body: setClientAutomationInput,
        response: { 200: clientView },
      },
    },
    async (request) => state.setAutomationPaused(requireUser(request), request.params.id, request.body.paused),
  );
};
