/**
 * HTTP edge of common/api/hooks.ts. Every route takes a signed-in user (a session, or an API key
 * with the scope `webhooks:manage` — the test form: sessions only); the service scopes every read,
 * so another client's subscription or delivery is a 404, and checks who may change what.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publicEventEnvelope, publicEventType } from '../../../common/api/events';
import {
  createdSubscription,
  createSubscriptionInput,
  deliveriesQuery,
  deliveriesResponse,
  deliveryDetail,
  deliveryView,
  restHookCreated,
  restHookInput,
  subscriptionsResponse,
  subscriptionView,
  updateSubscriptionInput,
  webhookTestInput,
  webhookTestResult,
} from '../../../common/api/hooks';
import { requireUser } from '../../http/access';
import type { HooksService } from './hooks.service';

const idParams = z.object({ id: z.uuid() });
/** The page's test form: requests per user per minute. */
const TEST_RATE_PER_MINUTE = 20;

export const hooksRoutes: FastifyPluginAsyncZod<{ hooksService: HooksService }> = async (app, { hooksService: service }) => {
  const tags = ['webhooks'];
  const manage = { access: 'signed-in' as const, scope: 'webhooks:manage' as const };

  app.get(
    '/api/v1/webhook-subscriptions',
    { config: manage, schema: { tags, summary: 'Webhook subscriptions, newest first (client users: their client’s)', response: { 200: subscriptionsResponse } } },
    async (request) => ({ subscriptions: await service.listSubscriptions(requireUser(request)) }),
  );

  app.post(
    '/api/v1/webhook-subscriptions',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Create a subscription; its signing secret is shown this once',
        description:
          'A client user’s subscription is always scoped to its client. `client_id` null (every client’s events) is for administrators only. ' +
          'The URL must be one Parley may call (public addresses, or hosts in OUTBOUND_ALLOWED_HOSTS).',
        body: createSubscriptionInput,
        response: { 201: createdSubscription },
      },
    },
    async (request, reply) => reply.status(201).send(await service.createSubscription(requireUser(request), request.body)),
  );

  app.get(
    '/api/v1/webhook-subscriptions/:id',
    { config: manage, schema: { tags, summary: 'One subscription', params: idParams, response: { 200: subscriptionView } } },
    async (request) => service.getSubscription(requireUser(request), request.params.id),
  );

  app.patch(
    '/api/v1/webhook-subscriptions/:id',
    {
      config: manage,
      schema: { tags, summary: 'Change a subscription (only the fields given); activating it clears an auto-disable', params: idParams, body: updateSubscriptionInput, response: { 200: subscriptionView } },
    },
    async (request) => service.updateSubscription(requireUser(request), request.params.id, request.body),
  );

  app.delete(
    '/api/v1/webhook-subscriptions/:id',
    { config: manage, schema: { tags, summary: 'Delete a subscription with its delivery log', params: idParams } },
    async (request, reply) => {
      await service.deleteSubscription(requireUser(request), request.params.id);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/v1/webhook-subscriptions/:id/rotate-secret',
    { config: manage, schema: { tags, summary: 'A new signing secret, shown this once (the old one stops at once)', params: idParams, response: { 200: createdSubscription } } },
    async (request) => service.rotateSecret(requireUser(request), request.params.id),
  );

  app.post(
    '/api/v1/webhook-subscriptions/:id/test',
    {
      config: manage,
      schema: { tags, summary: 'Send a `ping` test event now (once, logged; not counted in the subscription’s calls)', params: idParams, response: { 201: deliveryView } },
    },
    async (request, reply) => reply.status(201).send(await service.sendTest(requireUser(request), request.params.id)),
  );

  app.get(
    '/api/v1/webhook-subscriptions/:id/deliveries',
    {
      config: manage,
      schema: { tags, summary: 'The delivery log, newest first (filters: status, event; cursor: before)', params: idParams, querystring: deliveriesQuery, response: { 200: deliveriesResponse } },
    },
    async (request) => service.listDeliveries(requireUser(request), request.params.id, request.query),
  );

  app.get(
    '/api/v1/webhook-deliveries/:id',
    { config: manage, schema: { tags, summary: 'One delivery with every attempt (request headers and body, answer)', params: idParams, response: { 200: deliveryDetail } } },
    async (request) => service.getDelivery(requireUser(request), request.params.id),
  );

  app.post(
    '/api/v1/webhook-deliveries/:id/redeliver',
    { config: manage, schema: { tags, summary: 'Deliver the same event again (a new delivery, `redelivery_of` this one)', params: idParams, response: { 201: deliveryView } } },
    async (request, reply) => reply.status(201).send(await service.redeliver(requireUser(request), request.params.id)),
  );

  app.post(
    '/api/v1/webhooks/test',
    {
      config: {
        access: 'signed-in',
        rateLimit: { max: TEST_RATE_PER_MINUTE, timeWindow: 60_000, keyGenerator: (request) => request.user?.id ?? request.ip },
      },
      bodyLimit: 80 * 1024,
      schema: {
        tags,
        summary: 'The Webhooks page’s test: POSTs the typed JSON body to the URL from the server; the real answer',
        description: `No answer within ${10} seconds: \`status\` null and the error. A URL Parley may not call is a 400 and no request is made.`,
        body: webhookTestInput,
        response: { 200: webhookTestResult },
      },
    },
    async (request) => service.testUrl(request.body),
  );

  // REST hooks (Zapier's trigger protocol)
  const restTags = ['rest hooks'];

  app.post(
    '/api/v1/hooks',
    {
      config: manage,
      schema: {
        tags: restTags,
        summary: 'Subscribe a target URL to one event (REST hook); a 410 Gone from the target removes it',
        body: restHookInput,
        response: { 201: restHookCreated },
      },
    },
    async (request, reply) => reply.status(201).send(await service.createRestHook(requireUser(request), request.body)),
  );

  app.delete(
    '/api/v1/hooks/:id',
    { config: manage, schema: { tags: restTags, summary: 'Unsubscribe a REST hook', params: idParams } },
    async (request, reply) => {
      await service.deleteRestHook(requireUser(request), request.params.id);
      return reply.status(204).send();
    },
  );

  app.get(
    '/api/v1/hooks/samples/:event',
    {
      config: manage,
      schema: {
        tags: restTags,
        summary: 'Recent real payloads of an event the caller may see, else the documented example (for Zapier’s sample step)',
        params: z.object({ event: publicEventType }),
        response: { 200: z.array(publicEventEnvelope) },
      },
    },
    async (request) => service.samples(requireUser(request), request.params.event),
  );
};
