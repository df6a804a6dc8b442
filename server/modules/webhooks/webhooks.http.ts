/**
 * `POST /webhooks/{whatsapp,messenger,instagram}` at the HTTP level, in front of Fastify.
 *
 * Meta delivers at high rates and the answer is fixed: verify the signature on the raw bytes,
 * store the delivery (group commit), answer. Fastify's lifecycle around that — routing, every
 * plugin's hooks, a logger per request, body parsing, the send pipeline — cost more CPU than the
 * work itself, so the app's HTTP server hands these requests to `handleDelivery` before Fastify
 * (`WebhookFastPath`, wired through Fastify's `serverFactory` in app.ts). Everything else, and
 * the GET handshake, goes through Fastify. The Fastify route for the same URL (webhooks.routes.ts:
 * documentation, and requests injected into Fastify directly) answers through the same
 * `answerDelivery`, so both give the same answers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { toErrorBody } from '../../http/error-handler';
import { AppError } from '../../lib/errors';
import type { MetaKind, WebhooksService } from './webhooks.service';

/** Meta's deliveries can reach a few megabytes when it batches (WhatsApp documents up to 3 MB). */
export const META_BODY_LIMIT = 3 * 1024 * 1024;
export const RECEIVED = 'EVENT_RECEIVED';

export interface WebhookAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const RECEIVED_ANSWER: WebhookAnswer = {
  status: 200,
  headers: { 'content-type': 'text/plain; charset=utf-8', 'content-length': String(Buffer.byteLength(RECEIVED)), 'x-content-type-options': 'nosniff' },
  body: RECEIVED,
};

/** An error as the app's error handler states it (`{error: {code, message}}`), logged as it would. */
export function errorAnswer(error: unknown, log: Pick<Logger, 'error' | 'info'>): WebhookAnswer {
  const { status, body } = toErrorBody(error);
  if (status >= 500) log.error({ err: error }, 'webhook delivery failed');
  else if (status !== 401) log.info({ code: body.error.code, status }, body.error.message);
  const text = JSON.stringify(body);
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(text)), 'x-content-type-options': 'nosniff' },
    body: text,
  };
}

/** One delivery: 200 once it is stored, else the error's answer. */
export function answerDelivery(
  webhooks: WebhooksService,
  kind: MetaKind,
  raw: Buffer,
  signature: string | undefined,
  log: Pick<Logger, 'error' | 'info' | 'warn'>,
): Promise<WebhookAnswer> {
  // ingest() reports every failure through its promise.
  return webhooks.ingest(kind, raw, signature, log).then(
    () => RECEIVED_ANSWER,
    (error: unknown) => errorAnswer(error, log),
  );
}

/**
 * Reads the request body and calls `done` once: with the bytes, with 'too-large' as soon as it
 * exceeds `limit` (declared or counted), or with the connection's error.
 */
function readBody(request: IncomingMessage, limit: number, done: (error: Error | null, body?: Buffer | 'too-large') => void): void {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    request.resume();
    done(null, 'too-large');
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let finished = false;
  request.on('data', (chunk: Buffer) => {
    if (finished) return;
    size += chunk.length;
    if (size > limit) {
      finished = true;
      done(null, 'too-large');
      return;
    }
    chunks.push(chunk);
  });
  request.on('end', () => {
    if (finished) return;
    finished = true;
    done(null, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
  });
  request.on('error', (error) => {
    if (finished) return;
    finished = true;
    done(error);
  });
}

/** Writes the answer; a connection that went away meanwhile is only noted. */
function send(response: ServerResponse, answer: WebhookAnswer, log: Pick<Logger, 'info'>): void {
  try {
    response.writeHead(answer.status, answer.headers);
    response.end(answer.body);
  } catch (error) {
    log.info({ err: error }, 'webhook answer not sent');
    response.destroy();
  }
}

export type WebhookFastPath = (request: IncomingMessage, response: ServerResponse) => boolean;

/**
 * A request handler for the HTTP server, in front of Fastify: handles a webhook delivery and
 * answers true, or answers false for Fastify to handle the request.
 */
export function createWebhookFastPath(webhooks: WebhooksService, logger: Logger): WebhookFastPath {
  const log = logger.child({ component: 'webhooks' });
  const kinds = new Map<string, MetaKind>();
  for (const kind of webhooks.kinds) {
    kinds.set(`/webhooks/${kind}`, kind);
    kinds.set(`/webhooks/${kind}/`, kind);
  }
  return (request, response) => {
    if (request.method !== 'POST' || request.url === undefined) return false;
    const query = request.url.indexOf('?');
    const kind = kinds.get(query === -1 ? request.url : request.url.slice(0, query));
    if (!kind) return false;
    const header = request.headers['x-hub-signature-256'];
    readBody(request, META_BODY_LIMIT, (error, raw) => {
      if (error || raw === undefined) {
        // The connection failed while the body was read: nothing was stored, nobody to answer.
        log.info({ err: error }, 'webhook delivery aborted');
        if (!response.headersSent) response.destroy();
        return;
      }
      if (raw === 'too-large') {
        send(response, errorAnswer(new AppError('PAYLOAD_TOO_LARGE', 'Request body is too large'), log), log);
        return;
      }
      void answerDelivery(webhooks, kind, raw, typeof header === 'string' ? header : undefined, log).then((answer) => send(response, answer, log));
    });
    return true;
  };
}
