/**
 * The widget API of common/api/widget.ts. Called from any site that embeds the widget, so these
 * routes — and only these — answer CORS requests from any origin, without credentials (the
 * visitor token travels in `Authorization`, never in a cookie, so there is nothing for another
 * site to ride on and no CSRF check to make). Rate-limited per IP on every route and per visitor
 * on the routes a token opens.
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  demoWidgetResponse,
  widgetConfig,
  widgetMessage,
  widgetMessagesResponse,
  widgetSendInput,
  widgetSurveyAnswer,
  widgetVisitor,
  widgetVisitorInput,
} from '../../../common/api/widget';
import { AppError, notFound } from '../../lib/errors';
import type { Visitor, WidgetService } from './widget.service';

export interface WidgetLimits {
  /** Widget API requests per IP per minute (every route). */
  perIpPerMinute: number;
  /** Requests per visitor per minute (history and sending). */
  perVisitorPerMinute: number;
}

export const WIDGET_LIMITS: WidgetLimits = { perIpPerMinute: 120, perVisitorPerMinute: 30 };

export interface WidgetRoutesOptions {
  widgetService: WidgetService;
  limits?: WidgetLimits;
}

const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'retry-after',
} as const;

const PREFLIGHT_HEADERS = {
  ...CORS_HEADERS,
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'authorization, content-type',
  'access-control-max-age': '86400',
} as const;

const widgetParams = z.object({ widgetId: z.string().min(1).max(200).describe('The public widget id from the embed snippet') });
const surveyParams = widgetParams.extend({ surveyId: z.uuid({ error: 'Unknown survey' }) });
const bearer = z.looseObject({ authorization: z.string().max(400).optional().describe('Bearer <visitorToken>') });

export const widgetRoutes: FastifyPluginAsyncZod<WidgetRoutesOptions> = async (app, { widgetService, limits = WIDGET_LIMITS }) => {
  const tags = ['widget'];
  const publicApi = { access: 'public', csrf: false } as const;

  const ipLimit = app.createRateLimit({ max: limits.perIpPerMinute, timeWindow: 60_000, keyGenerator: (request) => `widget-ip:${request.ip}` });
  const visitorLimit = app.createRateLimit({
    max: limits.perVisitorPerMinute,
    timeWindow: 60_000,
    keyGenerator: (request) => `widget-visitor:${visitors.get(request)?.visitorId ?? request.ip}`,
  });
  const visitors = new WeakMap<FastifyRequest, Visitor>();

  const limited = async (limiter: typeof ipLimit, request: FastifyRequest, message: string) => {
    const result = await limiter(request);
    if (!result.isAllowed && result.isExceeded) {
      throw new AppError('RATE_LIMITED', message, { retryAfterSeconds: Math.max(1, result.ttlInSeconds) });
    }
  };

  // Encapsulated: these hooks run for the widget routes only.
  app.addHook('onRequest', async (request, reply) => {
    reply.headers(CORS_HEADERS);
    if (request.method === 'OPTIONS') return;
    await limited(ipLimit, request, 'Too many chat requests from your network. Please wait a minute and try again.');
  });

  /** preHandler of the routes a visitor token opens. */
  const requireVisitor = async (request: FastifyRequest) => {
    // Validated by each route's params schema before this runs.
    const { widgetId } = request.params as { widgetId: string };
    const visitor = await widgetService.authenticate(widgetId, request.headers.authorization);
    visitors.set(request, visitor);
    await limited(visitorLimit, request, "You're sending messages too quickly. Please wait a moment and try again.");
  };
  const visitorOf = (request: FastifyRequest): Visitor => {
    const visitor = visitors.get(request);
    if (!visitor) throw new AppError('UNAUTHENTICATED', 'A valid visitor token is required');
    return visitor;
  };

  app.options(
    '/api/v1/widget/*',
    { config: publicApi, schema: { hide: true } },
    async (_request, reply) => reply.status(204).headers(PREFLIGHT_HEADERS).send(),
  );

  app.get(
    '/api/v1/widget/:widgetId',
    {
      config: publicApi,
      schema: { tags, summary: "A widget's name and greeting (404 when unknown or disabled)", params: widgetParams, response: { 200: widgetConfig } },
    },
    async (request) => widgetService.getConfig(request.params.widgetId),
  );

  app.post(
    '/api/v1/widget/:widgetId/visitors',
    {
      config: publicApi,
      schema: {
        tags,
        summary: 'Start a visitor, or resume one with its token',
        description: 'A valid `visitorToken` for this widget resumes that visitor (200); without one, or with a forged or foreign token, a new visitor starts (201). Keep the token (the widget keeps it in localStorage) and send it as `Authorization: Bearer <token>`.',
        params: widgetParams,
        body: widgetVisitorInput,
        response: { 200: widgetVisitor, 201: widgetVisitor },
      },
    },
    async (request, reply) => {
      const { created, ...visitor } = await widgetService.startVisitor(request.params.widgetId, request.body);
      return reply.status(created ? 201 : 200).send(visitor);
    },
  );

  app.get(
    '/api/v1/widget/:widgetId/messages',
    {
      config: publicApi,
      schema: { tags, summary: "The visitor's conversation, oldest first", params: widgetParams, headers: bearer, response: { 200: widgetMessagesResponse } },
      preHandler: requireVisitor,
    },
    async (request) => ({ messages: await widgetService.findMessages(visitorOf(request)) }),
  );

  app.post(
    '/api/v1/widget/:widgetId/messages',
    {
      config: publicApi,
      schema: {
        tags,
        summary: "Send the visitor's message",
        description: 'Idempotent on `clientMessageId`: sending the same id again stores nothing new and answers 200 with the message first stored (a new message answers 201).',
        params: widgetParams,
        headers: bearer,
        body: widgetSendInput,
        response: { 200: widgetMessage, 201: widgetMessage },
      },
      preHandler: requireVisitor,
    },
    async (request, reply) => {
      const { message, created } = await widgetService.sendMessage(visitorOf(request), request.body);
      return reply.status(created ? 201 : 200).send(message);
    },
  );

  app.post(
    '/api/v1/widget/:widgetId/surveys/:surveyId',
    {
      config: publicApi,
      schema: {
        tags,
        summary: "The visitor's rating of a resolved conversation",
        description:
          'Answers the satisfaction survey under a request message (`message.survey`): 1–5 and an optional comment, stored once as the visitor\'s message without reopening the conversation. 409 when the survey was already answered or has expired.',
        params: surveyParams,
        headers: bearer,
        body: widgetSurveyAnswer,
        response: { 201: widgetMessage },
      },
      preHandler: requireVisitor,
    },
    async (request, reply) => reply.status(201).send(await widgetService.answerSurvey(visitorOf(request), request.params.surveyId, request.body)),
  );
};

/** Same-origin (no CORS): which widget Parley's own marketing pages embed. */
export const demoWidgetRoutes: FastifyPluginAsyncZod<{ widgetService: WidgetService }> = async (app, { widgetService }) => {
  app.get(
    '/api/v1/public/demo-widget',
    {
      config: { access: 'public' },
      schema: { tags: ['widget'], summary: "The widget of Parley's own demo client (embedded on the marketing pages)", response: { 200: demoWidgetResponse } },
    },
    async () => {
      const widgetId = await widgetService.findDemoWidget();
      if (!widgetId) throw notFound('Demo widget');
      return { widgetId };
    },
  );
};
