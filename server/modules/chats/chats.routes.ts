/**
 * HTTP edge of common/api/chats.ts. Any signed-in user; each sees only the threads they take part
 * in (another thread's id answers 404), and may start chats as the service's rules allow.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  chatMessageInput,
  chatMessagesResponse,
  chatMessageView,
  chatThreadView,
  findChatsQuery,
  findChatsResponse,
  newChatInput,
  recipientsResponse,
} from '../../../common/api/chats';
import { requireUser } from '../../http/access';
import type { ChatsService } from './chats.service';

const idParams = z.object({ id: z.uuid() });

export const chatsRoutes: FastifyPluginAsyncZod<{ chatsService: ChatsService }> = async (app, { chatsService: service }) => {
  const tags = ['chats'];
  const config = { access: 'signed-in' as const };

  app.get(
    '/api/v1/chats',
    {
      config,
      schema: { tags, summary: 'My chat threads (total and unread cover all of them)', querystring: findChatsQuery, response: { 200: findChatsResponse } },
    },
    async (request) => service.findChats(requireUser(request), request.query),
  );

  app.post(
    '/api/v1/chats',
    {
      config,
      schema: { tags, summary: 'New Chat: the thread with the recipient (reused if it exists) and a first message', body: newChatInput, response: { 201: chatThreadView } },
    },
    async (request, reply) => reply.status(201).send(await service.startChat(requireUser(request), request.body)),
  );

  app.get(
    '/api/v1/chats/recipients',
    { config, schema: { tags, summary: 'People I may start a chat with (admins: everyone; others: admins)', response: { 200: recipientsResponse } } },
    async (request) => ({ recipients: await service.findRecipients(requireUser(request)) }),
  );

  app.get(
    '/api/v1/chats/:id/messages',
    { config, schema: { tags, summary: "A thread's messages, oldest first (the latest 500)", params: idParams, response: { 200: chatMessagesResponse } } },
    async (request) => ({ messages: await service.findMessages(requireUser(request), request.params.id) }),
  );

  app.post(
    '/api/v1/chats/:id/messages',
    {
      config,
      schema: { tags, summary: 'Send a message in a thread', params: idParams, body: chatMessageInput, response: { 201: chatMessageView } },
    },
    async (request, reply) => reply.status(201).send(await service.sendMessage(requireUser(request), request.params.id, request.body.message)),
  );

  app.post(
    '/api/v1/chats/:id/read',
    { config, schema: { tags, summary: 'Mark a thread read', params: idParams } },
    async (request, reply) => {
      await service.markRead(requireUser(request), request.params.id);
      return reply.status(204).send();
    },
  );
};
