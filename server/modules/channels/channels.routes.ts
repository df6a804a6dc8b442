/**
 * HTTP edge of the channel-management part of common/api/channels.ts: administrators connect,
 * change, test and disable channels; managers may list them (to see what is connected), without
 * ever seeing a secret. The custom platform's inbound route lives with the API channel.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  channelTestResult,
  channelView,
  createChannelInput,
  createdChannel,
  deliveriesResponse,
  findChannelsQuery,
  findChannelsResponse,
  updateChannelInput,
} from '../../../common/api/channels';
import type { ChannelsService } from './channels.service';

const idParams = z.object({ id: z.uuid() });

export const channelsRoutes: FastifyPluginAsyncZod<{ channelsService: ChannelsService }> = async (app, { channelsService: service }) => {
  const tags = ['channels'];
  const admin = { access: ['admin'] as const };

  app.get(
    '/api/v1/channels',
    {
      config: { access: ['admin', 'manager'] },
      schema: { tags, summary: 'Channels with their webhook URL (secrets never shown)', querystring: findChannelsQuery, response: { 200: findChannelsResponse } },
    },
    async (request) => ({ channels: await service.findChannels(request.query) }),
  );

  app.post(
    '/api/v1/channels',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Connect a channel to a client; a generated verify token or signing secret is shown this once',
        body: createChannelInput,
        response: { 201: createdChannel },
      },
    },
    async (request, reply) => reply.status(201).send(await service.createChannel(request.body)),
  );

  app.patch(
    '/api/v1/channels/:id',
    {
      config: admin,
      schema: { tags, summary: 'Rename, disable/enable, replace credentials or the callback URL', params: idParams, body: updateChannelInput, response: { 200: channelView } },
    },
    async (request) => service.updateChannel(request.params.id, request.body),
  );

  app.post(
    '/api/v1/channels/:id/rotate-verify-token',
    {
      config: admin,
      schema: { tags, summary: 'A new webhook verify token (Meta channels), shown this once', params: idParams, response: { 200: createdChannel } },
    },
    async (request) => service.rotateVerifyToken(request.params.id),
  );

  app.post(
    '/api/v1/channels/:id/test',
    { config: admin, schema: { tags, summary: 'Check the stored credentials with the platform', params: idParams, response: { 200: channelTestResult } } },
    async (request) => service.testChannel(request.params.id),
  );

  app.get(
    '/api/v1/channels/:id/deliveries',
    { config: admin, schema: { tags, summary: "An API channel's latest callback attempts", params: idParams, response: { 200: deliveriesResponse } } },
    async (request) => ({ deliveries: await service.findDeliveries(request.params.id) }),
  );
};
