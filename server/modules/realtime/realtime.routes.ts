/**
 * `GET /api/v1/realtime`: the WebSocket of common/api/realtime.ts. The portal authenticates with
 * its session cookie and must come from Parley's own origin (no cross-site WebSocket hijacking);
 * the widget authenticates with `?widgetId=&visitorToken=` from any origin and holds no cookie.
 */
import type { FastifyPluginAsync } from 'fastify';
import type {} from '@fastify/websocket'; // route option `websocket: true`
import { z } from 'zod';
import { realtimeClientMessage } from '../../../common/api/realtime';
import type { Principal, RealtimeHub, VisitorPrincipal } from './realtime.hub';

export interface RealtimeRoutesOptions {
  hub: RealtimeHub;
  publicUrl: string;
  resolveVisitor(widgetId: string, token: string): Promise<VisitorPrincipal | null>;
  /** Called on connect and on every heartbeat of a signed-in user (presence). */
  onUserSeen?(userId: string): void;
}

const HEARTBEAT_MS = 30_000;

export const realtimeRoutes: FastifyPluginAsync<RealtimeRoutesOptions> = async (app, options) => {
  const allowedOrigin = new URL(options.publicUrl).origin;

  app.get(
    '/api/v1/realtime',
    {
      websocket: true,
      config: { access: 'public', csrf: false },
      schema: { hide: true, querystring: z.object({ widgetId: z.string().max(100).optional(), visitorToken: z.string().max(300).optional() }) },
    },
    async (socket, request) => {
      let principal: Principal | null = null;
      const origin = request.headers.origin;
      if (request.user) {
        const sameOrigin = origin === undefined || origin === allowedOrigin || origin === `${request.protocol}://${request.host}`;
        if (sameOrigin) principal = { kind: 'user', user: request.user };
      }
      if (!principal) {
        const { widgetId, visitorToken } = request.query as { widgetId?: string; visitorToken?: string };
        const visitor = widgetId && visitorToken ? await options.resolveVisitor(widgetId, visitorToken) : null;
        if (visitor) principal = { kind: 'visitor', visitor };
      }
      if (!principal) {
        socket.send(JSON.stringify({ type: 'error', code: 'UNAUTHENTICATED', message: 'Sign in, or connect with a visitor token' }));
        socket.close(4401, 'Unauthenticated');
        return;
      }

      const connection = options.hub.add(principal, socket);
      const userId = principal.kind === 'user' ? principal.user.id : null;
      if (userId) options.onUserSeen?.(userId);
      let alive = true;
      const heartbeat = setInterval(() => {
        if (!alive) {
          socket.terminate();
          return;
        }
        alive = false;
        socket.ping();
        if (userId) options.onUserSeen?.(userId);
      }, HEARTBEAT_MS);
      socket.on('pong', () => {
        alive = true;
      });
      socket.on('close', () => {
        clearInterval(heartbeat);
        options.hub.remove(connection);
      });
      socket.on('message', (raw: Buffer, isBinary: boolean) => {
        alive = true;
        let parsed: z.infer<typeof realtimeClientMessage>;
        try {
          if (isBinary || raw.length > 4096) throw new Error('bad frame');
          parsed = realtimeClientMessage.parse(JSON.parse(raw.toString('utf8')));
        } catch {
          options.hub.send(connection, { type: 'error', code: 'BAD_REQUEST', message: 'Unreadable message' });
          return;
        }
        switch (parsed.type) {
          case 'ping':
            options.hub.send(connection, { type: 'pong' });
            return;
          case 'unsubscribe':
            options.hub.unsubscribe(connection, parsed.topic);
            options.hub.send(connection, { type: 'subscribed', id: parsed.id, topic: parsed.topic });
            return;
          case 'subscribe':
            options.hub
              .subscribe(connection, parsed.id, parsed.topic)
              .then((answer) => options.hub.send(connection, answer))
              .catch((error: unknown) => {
                request.log.error({ err: error }, 'realtime subscription failed');
                options.hub.send(connection, { type: 'error', id: parsed.id, code: 'NOT_FOUND', message: 'Not found' });
              });
            return;
          default: {
            const unhandled: never = parsed;
            void unhandled;
          }
        }
      });
      options.hub.send(connection, { type: 'ready' });
    },
  );
};
