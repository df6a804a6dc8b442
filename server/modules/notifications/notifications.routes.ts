import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { findNotificationsQuery, idParams, notificationsResponse, unreadCountResponse } from '../../../common/api/me';
import { requireUser } from '../../http/access';
import type { NotificationsService } from './notifications.service';

export const notificationsRoutes: FastifyPluginAsyncZod<{ notificationsService: NotificationsService }> = async (app, { notificationsService }) => {
  const tags = ['notifications'];
  const config = { access: 'signed-in' as const };

  app.get(
    '/api/v1/me/notifications',
    {
      config,
      schema: { tags, summary: 'My notifications, newest first, with the unread count', querystring: findNotificationsQuery, response: { 200: notificationsResponse } },
    },
    async (request) => notificationsService.findNotifications(requireUser(request).id, request.query),
  );

  app.get(
    '/api/v1/me/notifications/unread-count',
    { config, schema: { tags, summary: 'How many of my notifications are unread', response: { 200: unreadCountResponse } } },
    async (request) => ({ count: await notificationsService.countUnread(requireUser(request).id) }),
  );

  app.post(
    '/api/v1/me/notifications/:id/read',
    { config, schema: { tags, summary: 'Mark one of my notifications read', params: idParams } },
    async (request, reply) => {
      await notificationsService.markRead(requireUser(request).id, request.params.id);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/v1/me/notifications/read-all',
    { config, schema: { tags, summary: 'Mark all my notifications read' } },
    async (request, reply) => {
      await notificationsService.markAllRead(requireUser(request).id);
      return reply.status(204).send();
    },
  );
};
