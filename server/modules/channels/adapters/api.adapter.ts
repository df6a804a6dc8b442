/**
 * Custom-platform (API) channel, outbound: each reply is POSTed as `apiOutboundMessage` to the
 * channel's callback URL, signed like inbound requests (./api-signature.ts), with a timeout.
 * 2xx is sent; a network error, a timeout, 5xx and 429 are retried by the send job with backoff;
 * any other answer fails the message at once. Every attempt — and every credential test — is
 * written to the channel's delivery log (`channel_deliveries`).
 *
 * The callback URL is user input: requests go through the guarded client (server/lib/guarded-http.ts),
 * which refuses this server, private networks and metadata addresses where it connects (the
 * message fails at once with the reason, and no answer body is logged since none came) and never
 * follows a redirect — a signed request is meant for this URL only, so a 3xx is the answer.
 */
import type { Logger } from 'pino';
import type { ApiOutboundMessage } from '../../../../common/api/channels';
import { RATING_MAX, RATING_MIN } from '../../../../common/messaging/satisfaction';
import type { Clock } from '../../../lib/clock';
import { GuardedHttpError, type GuardedHttp } from '../../../lib/guarded-http';
import type { ChannelDeliveriesRepository } from '../channel-deliveries.repository';
import { DELIVERY_BODY_MAX } from '../channel-deliveries.repository';
import { signedHeaders } from './api-signature';
import { type ChannelAdapter, type ChannelWithSecrets, SendError } from './channel-adapter';

export interface ApiAdapterOptions {
  deliveries: ChannelDeliveriesRepository;
  clock: Clock;
  logger: Logger;
  /** The guarded client every request to a user-given URL goes through. */
  http: GuardedHttp;
  /** Per request, body included (default 10 s). */
  timeoutMs?: number;
  userAgent?: string;
}

/** Longest wait a 429's Retry-After may ask for before the job's own backoff applies. */
const MAX_RETRY_AFTER_MS = 10 * 60_000;
/** How much of an answer is quoted in a failed message's reason. */
const REASON_BODY_MAX = 200;

interface Attempt {
  statusCode: number | null;
  body: string | null;
  error: Error | null;
  retryAfter: string | null;
  durationMs: number;
}

function retryAfterMs(value: string | null, now: Date): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : new Date(value).getTime() - now.getTime();
  return Number.isFinite(ms) && ms >= 0 ? Math.min(ms, MAX_RETRY_AFTER_MS) : undefined;
}

function describeError(error: Error): { code: string; message: string } {
  if (error instanceof GuardedHttpError) {
    switch (error.kind) {
      case 'refused':
        return { code: 'refused', message: error.message };
      case 'timeout':
        return { code: 'timeout', message: 'The callback URL did not answer in time' };
      case 'aborted':
      case 'too_large':
      case 'network':
        return { code: 'network', message: `Could not reach the callback URL (${error.reason})` };
    }
  }
  return { code: 'network', message: `Could not reach the callback URL (${error.message})` };
}

export function createApiAdapter(options: ApiAdapterOptions): ChannelAdapter {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const userAgent = options.userAgent ?? 'Parley-Callback/1';

  function target(channel: ChannelWithSecrets): { url: string; secret: string } {
    const url = channel.callbackUrl;
    const secret = channel.secretValues.signingSecret;
    if (!url) throw new SendError('The channel has no callback URL', { retryable: false, code: 'no_callback_url' });
    if (!secret) throw new SendError('The channel has no signing secret', { retryable: false, code: 'no_signing_secret' });
    return { url, secret };
  }

  /** One signed POST, logged whatever happens. */
  async function post(channel: ChannelWithSecrets, body: string, messageId: string | null, signal: AbortSignal): Promise<Attempt> {
    const { url, secret } = target(channel);
    const attempt = messageId ? (await options.deliveries.countAttempts(messageId)) + 1 : 1;
    const started = performance.now();
    const result: Attempt = { statusCode: null, body: null, error: null, retryAfter: null, durationMs: 0 };
    try {
      // Redirects are not followed: a signed request is meant for this URL only; a 3xx is the answer.
      const response = await options.http.request(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': userAgent,
          // The same for every attempt at one message: after a crash a reply may be POSTed again.
          ...(messageId ? { 'x-parley-idempotency-key': messageId } : {}),
          ...signedHeaders(secret, body, options.clock.now()),
        },
        body,
        signal,
        timeoutMs,
        maxBodyBytes: DELIVERY_BODY_MAX,
        oversize: 'truncate',
      });
      result.statusCode = response.status;
      result.retryAfter = response.headers.get('retry-after');
      result.body = response.body.toString('utf8');
    } catch (error) {
      result.error = error instanceof Error ? error : new Error(String(error));
    }
    result.durationMs = performance.now() - started;
    try {
      await options.deliveries.record({
        channelId: channel.id,
        messageId,
        attempt,
        url,
        statusCode: result.statusCode,
        responseBody: result.body,
        error: result.error ? describeError(result.error).message : null,
        durationMs: result.durationMs,
      });
    } catch (error) {
      // The request went out; failing now would send it again on retry.
      options.logger.warn({ err: error, channelId: channel.id, messageId }, 'could not write the delivery log');
    }
    return result;
  }

  return {
    kind: 'api',

    async sendText(channel, message, signal) {
      const payload: ApiOutboundMessage = {
        event: 'message.created',
        channelId: channel.id,
        conversationId: message.conversationId,
        contact: { id: message.to },
        message: {
          id: message.messageId,
          text: message.text,
          senderType: message.senderType,
          ...(message.surveyId ? { survey: { id: message.surveyId, minRating: RATING_MIN, maxRating: RATING_MAX } } : {}),
          createdAt: message.createdAt.toISOString(),
        },
      };
      const result = await post(channel, JSON.stringify(payload), message.messageId, signal);
      if (result.error) {
        const { code, message: reason } = describeError(result.error);
        // A refused address is a configuration problem: retrying would be refused again.
        throw new SendError(reason, { retryable: code !== 'refused', code, cause: result.error });
      }
      const status = result.statusCode ?? 0;
      if (status >= 200 && status < 300) return { externalMessageId: null };
      const quoted = result.body ? `: ${result.body.slice(0, REASON_BODY_MAX)}` : '';
      const reason = `The callback URL answered HTTP ${status}${quoted}`;
      if (status === 429 || status >= 500) {
        throw new SendError(reason, { retryable: true, code: `http_${status}`, retryAfterMs: retryAfterMs(result.retryAfter, options.clock.now()) });
      }
      throw new SendError(reason, { retryable: false, code: `http_${status}` });
    },

    async testCredentials(channel, signal) {
      let result: Attempt;
      try {
        result = await post(channel, JSON.stringify({ event: 'ping', channelId: channel.id }), null, signal);
      } catch (error) {
        return { ok: false, message: error instanceof Error ? error.message : String(error) };
      }
      if (result.error) return { ok: false, message: describeError(result.error).message };
      const status = result.statusCode ?? 0;
      const ms = Math.round(result.durationMs);
      if (status >= 200 && status < 300) return { ok: true, message: `The callback URL answered HTTP ${status} in ${ms} ms.` };
      const quoted = result.body ? `: ${result.body.slice(0, REASON_BODY_MAX)}` : '';
      return { ok: false, message: `The callback URL answered HTTP ${status}${quoted}` };
    },
  };
}
