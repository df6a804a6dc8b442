/**
 * Security headers on every response (helmet): the Content-Security-Policy the web app is built to
 * pass, HSTS on HTTPS installs only.
 */
import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/** The CSP the web app is built to pass (no inline scripts, no eval, same-origin connections). */
export const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'https:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

export interface SecurityHeadersOptions {
  /** Send Strict-Transport-Security (only when PUBLIC_URL is https). */
  hsts: boolean;
}

export async function registerSecurityHeaders(server: FastifyInstance, options: SecurityHeadersOptions): Promise<void> {
  await server.register(fastifyHelmet, {
    contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
    hsts: options.hsts,
    crossOriginEmbedderPolicy: false,
  });
}
