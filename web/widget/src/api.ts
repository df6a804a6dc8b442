/**
 * The widget API (common/api/widget.ts) from any site: CORS, never credentials. Answers are
 * checked by hand instead of with the contract's zod schemas — zod alone would outweigh the
 * whole widget (see docs/DECISIONS.md).
 */
import type { WidgetMessage } from '../../../common/api/widget';

export type { WidgetMessage };

export interface WidgetConfig {
  widgetId: string;
  name: string;
  greeting: string;
}

export interface Visitor {
  visitorId: string;
  visitorToken: string;
}

/** A failed call; `status` 0 means the network (or CORS) failed before an answer. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
  /** Worth sending again later with the same clientMessageId. */
  get transient(): boolean {
    return this.status === 0 || this.status >= 500;
  }
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null;
const isString = (v: unknown): v is string => typeof v === 'string';

export function isWidgetMessage(v: unknown): v is WidgetMessage {
  return (
    isObject(v) &&
    isString(v.id) &&
    (v.from === 'visitor' || v.from === 'business') &&
    isString(v.senderType) &&
    isString(v.text) &&
    isString(v.createdAt) &&
    (v.survey === undefined || v.survey === null || (isObject(v.survey) && isString(v.survey.id) && isString(v.survey.status) && isString(v.survey.expiresAt)))
  );
}

function expect<T>(value: unknown, check: (v: unknown) => v is T): T {
  if (!check(value)) throw new ApiError(0, 'Unexpected answer from the chat server');
  return value;
}

const isConfig = (v: unknown): v is WidgetConfig => isObject(v) && isString(v.widgetId) && isString(v.name) && isString(v.greeting);
const isVisitor = (v: unknown): v is Visitor => isObject(v) && isString(v.visitorId) && isString(v.visitorToken);
const isMessageList = (v: unknown): v is { messages: WidgetMessage[] } =>
  isObject(v) && Array.isArray(v.messages) && v.messages.every(isWidgetMessage);

export interface WidgetApi {
  config(): Promise<WidgetConfig>;
  visitor(visitorToken: string | null): Promise<Visitor>;
  messages(visitorToken: string): Promise<WidgetMessage[]>;
  send(visitorToken: string, text: string, clientMessageId: string): Promise<WidgetMessage>;
  /** The visitor's rating of a resolved conversation (a survey under a business message). */
  rate(visitorToken: string, surveyId: string, rating: number, comment: string): Promise<WidgetMessage>;
}

export function createApi(origin: string, widgetId: string): WidgetApi {
  const base = `${origin}/api/v1/widget/${encodeURIComponent(widgetId)}`;

  async function call(path: string, init: { method?: string; token?: string; body?: unknown } = {}): Promise<unknown> {
    const headers: Record<string, string> = {};
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    let response: Response;
    try {
      response = await fetch(base + path, {
        method: init.method ?? 'GET',
        mode: 'cors',
        credentials: 'omit',
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
    } catch {
      throw new ApiError(0, 'No connection. Retrying…');
    }
    const data: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      const error = isObject(data) && isObject(data.error) && isString(data.error.message) ? data.error.message : `Request failed (${response.status})`;
      throw new ApiError(response.status, error);
    }
    return data;
  }

  return {
    config: async () => expect(await call(''), isConfig),
    visitor: async (visitorToken) => expect(await call('/visitors', { method: 'POST', body: visitorToken ? { visitorToken } : {} }), isVisitor),
    messages: async (token) => expect(await call('/messages', { token }), isMessageList).messages,
    send: async (token, text, clientMessageId) =>
      expect(await call('/messages', { method: 'POST', token, body: { text, clientMessageId } }), isWidgetMessage),
    rate: async (token, surveyId, rating, comment) =>
      expect(
        await call(`/surveys/${encodeURIComponent(surveyId)}`, { method: 'POST', token, body: comment.trim() ? { rating, comment: comment.trim() } : { rating } }),
        isWidgetMessage,
      ),
  };
}
