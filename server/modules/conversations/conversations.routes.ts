/**
 * HTTP edge of common/api/conversations.ts. Any signed-in user; what each one sees is scoped in
 * the service (client users: their own client's data only, another client's ids answer 404).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  conversationView,
  exportMessagesQuery,
  findContactsQuery,
  findContactsResponse,
  findConversationsQuery,
  findConversationsResponse,
  findMessagesQuery,
  findMessagesResponse,
  findThreadQuery,
  messageView,
  sendMessageInput,
  setConversionInput,
  startConversationInput,
  threadResponse,
  updateConversationInput,
} from '../../../common/api/conversations';
import { requireUser } from '../../http/access';
import type { ConversationsService } from './conversations.service';

const idParams = z.object({ id: z.uuid() });
const messageParams = z.object({ id: z.uuid(), messageId: z.uuid() });

export const conversationsRoutes: FastifyPluginAsyncZod<{ conversationsService: ConversationsService }> = async (app, { conversationsService: service }) => {
  const tags = ['conversations'];
  const config = { access: 'signed-in' as const };
  const read = { ...config, scope: 'conversations:read' as const };
  const send = { ...config, scope: 'messages:send' as const };
  const contacts = { ...config, scope: 'contacts:read' as const };

  app.get(
    '/api/v1/conversations',
    {
      config: read,
      schema: {
        tags,
        summary: 'Conversations by last activity, with tab counts (counts ignore the tab and the search)',
        querystring: findConversationsQuery,
        response: { 200: findConversationsResponse },
      },
    },
    async (request) => service.findConversations(requireUser(request), request.query),
  );

  app.post(
    '/api/v1/conversations',
    {
      config: send,
      schema: {
        tags,
        summary: 'Write first to a contact (website chat, API); 409 business_cannot_start on WhatsApp, Messenger, Instagram',
        body: startConversationInput,
        response: { 201: conversationView },
      },
    },
    async (request, reply) => reply.status(201).send(await service.startConversation(requireUser(request), request.body)),
  );

  app.get(
    '/api/v1/conversations/:id',
    { config: read, schema: { tags, summary: 'One conversation', params: idParams, response: { 200: conversationView } } },
    async (request) => service.getConversation(requireUser(request), request.params.id),
  );

  app.patch(
    '/api/v1/conversations/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Change status, handler (Handoff to Human / back to AI), assignee, priority or title',
        params: idParams,
        body: updateConversationInput,
        response: { 200: conversationView },
      },
    },
    async (request) => service.updateConversation(requireUser(request), request.params.id, request.body),
  );

  app.put(
    '/api/v1/conversations/:id/conversion',
    {
      config,
      schema: {
        tags,
        summary: '"Mark as converted" on a lead, or undo it (the conversion rate of the client dashboard); 409 not_a_lead',
        params: idParams,
        body: setConversionInput,
        response: { 200: conversationView },
      },
    },
    async (request) => service.setConverted(requireUser(request), request.params.id, request.body.converted),
  );

  app.post(
    '/api/v1/conversations/:id/read',
    { config, schema: { tags, summary: "Mark the conversation's customer messages read", params: idParams } },
    async (request, reply) => {
      await service.markConversationRead(requireUser(request), request.params.id);
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/v1/conversations/:id/messages',
    {
      config: read,
      schema: { tags, summary: 'The thread, oldest first; `before` pages back', params: idParams, querystring: findThreadQuery, response: { 200: threadResponse } },
    },
    async (request) => service.findThread(requireUser(request), request.params.id, request.query),
  );

  app.post(
    '/api/v1/conversations/:id/messages',
    {
      config: send,
      schema: {
        tags,
        summary: 'Send a reply through the channel; 409 window_closed outside the 24-hour window',
        params: idParams,
        body: sendMessageInput,
        response: { 201: messageView },
      },
    },
    async (request, reply) => reply.status(201).send(await service.sendReply(requireUser(request), request.params.id, request.body)),
  );

  app.post(
    '/api/v1/conversations/:id/messages/:messageId/retry',
    { config: send, schema: { tags, summary: 'Queue a failed outbound message again', params: messageParams, response: { 200: messageView } } },
    async (request) => service.retryMessage(requireUser(request), request.params.id, request.params.messageId),
  );

  app.get(
    '/api/v1/contacts',
    { config: contacts, schema: { tags, summary: 'Contacts, for the new-conversation dialog', querystring: findContactsQuery, response: { 200: findContactsResponse } } },
    async (request) => ({ contacts: await service.findContacts(requireUser(request), request.query) }),
  );

  app.get(
    '/api/v1/messages',
    {
      config: read,
      schema: { tags, summary: 'Customer messages, newest first (latest 50 by default)', querystring: findMessagesQuery, response: { 200: findMessagesResponse } },
    },
    async (request) => service.findMessages(requireUser(request), request.query),
  );

  app.get(
    '/api/v1/messages/export.csv',
    {
      config: read,
      schema: {
        tags,
        summary: 'The messages view as CSV (same filter and search)',
        querystring: exportMessagesQuery,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const { filename, csv } = await service.exportMessages(requireUser(request), request.query);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'no-store')
        .send(csv);
    },
  );

  app.post(
    '/api/v1/messages/read-all',
    {
      config,
      schema: {
        tags,
        summary: 'Mark every message matching the filter and search read',
        body: findMessagesQuery.pick({ filter: true, search: true }),
        response: { 200: z.object({ updated: z.number().int() }) },
      },
    },
    async (request) => service.markAllMessagesRead(requireUser(request), request.body),
  );

  app.post(
    '/api/v1/messages/:id/read',
    { config, schema: { tags, summary: 'Mark one message read ("Marked as Read")', params: idParams } },
    async (request, reply) => {
      await service.markMessageRead(requireUser(request), request.params.id);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/v1/messages/:id/respond',
    {
      config,
      schema: { tags, summary: "Answer a message: a reply in its conversation", params: idParams, body: sendMessageInput, response: { 201: messageView } },
    },
    async (request, reply) => reply.status(201).send(await service.respondToMessage(requireUser(request), request.params.id, request.body)),
  );
};
