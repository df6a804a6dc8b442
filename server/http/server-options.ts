/**
 * Fastify's settings, and the HTTP server it listens with. The server is made here (a server
 * factory) so that a handler in front of Fastify can answer some requests first (Meta's webhook
 * deliveries, webhooks.http.ts), with the settings Fastify gives its own servers.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { lazyChildLogger } from '../lib/logger';

export type RequestHandler = (request: IncomingMessage, response: ServerResponse) => void;

export interface ServerOptionsInput {
  logger: FastifyBaseLogger;
  trustProxy: boolean;
  /** Runs every request; it passes on to Fastify's handler (`fastify`) what it does not answer itself. */
  handle: RequestHandler;
  /** Given Fastify's own request handler once Fastify has made the server. */
  onFastifyHandler: (handler: RequestHandler) => void;
}

/** The request body limit (1 MiB). */
export const BODY_LIMIT = 1024 * 1024;

/** Fastify infers its instance type (the raw server, the logger) from what this returns. */
export function serverOptions(input: ServerOptionsInput) {
  return {
    serverFactory: (handler: RequestHandler, factoryOptions: unknown): http.Server => {
      input.onFastifyHandler(handler);
      // Fastify's own server settings (lib/server.js), which a factory's server does not get otherwise.
      const o = factoryOptions as { http?: http.ServerOptions; keepAliveTimeout?: number; requestTimeout?: number; connectionTimeout?: number; maxRequestsPerSocket?: number };
      const created = http.createServer(o.http ?? {}, input.handle);
      created.keepAliveTimeout = o.keepAliveTimeout ?? 72_000;
      created.requestTimeout = o.requestTimeout ?? 0;
      created.setTimeout(o.connectionTimeout ?? 0);
      if ((o.maxRequestsPerSocket ?? 0) > 0) created.maxRequestsPerSocket = o.maxRequestsPerSocket ?? 0;
      return created;
    },
    loggerInstance: input.logger,
    childLoggerFactory: (parent: FastifyBaseLogger, bindings: object, options: object): FastifyBaseLogger => lazyChildLogger(parent, bindings, options),
    trustProxy: input.trustProxy,
    routerOptions: { ignoreTrailingSlash: true },
    bodyLimit: BODY_LIMIT,
  };
}
