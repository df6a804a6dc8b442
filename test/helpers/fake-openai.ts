/**
 * A fake LLM provider on loopback: OpenAI's `POST /v1/chat/completions` (what `createOpenAI(...).chat`
 * and `createOpenAICompatible` call) and Anthropic's `POST /v1/messages`, non-streaming. Answers
 * come from a script shared by both endpoints (first in, first out); every request is recorded
 * with its headers and parsed body, so tests can check the model, the key and the prompt.
 *
 *   const fake = await startFakeLlm();
 *   fake.script({ content: JSON.stringify({ answer: 'Hi', confidence: 0.9, handoff: false, sources: ['P1'] }) });
 *   fake.script({ status: 500 }, 'hang', { content: 'not json', delayMs: 50 });
 *   createOpenAICompatible({ name: 'local', baseURL: fake.baseUrl, apiKey: 'test-key' });
 *
 * A request with nothing scripted gets a 500, so a test never passes on a default by accident.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeLlmAnswer =
  /** A completion whose text is `content` (structured-output requests get it verbatim too). */
  | { content: string; delayMs?: number; inputTokens?: number; outputTokens?: number }
  /** An HTTP error; `body` defaults to the provider's error shape with `message`. */
  | { status: number; message?: string; body?: unknown; delayMs?: number }
  /** Never answers (a time-out). */
  | 'hang';

export interface FakeLlmRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The parsed JSON body (or the raw text when it was not JSON). */
  body: Record<string, unknown>;
  /** Every text of the prompt (system and messages, any shape) joined by newlines. */
  promptText: string;
}

export interface FakeLlm {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** `url + '/v1'`: the `baseURL` for the OpenAI, OpenAI-compatible and Anthropic providers. */
  baseUrl: string;
  requests: FakeLlmRequest[];
  script(...answers: FakeLlmAnswer[]): void;
  reset(): void;
  close(): Promise<void>;
}

const DEFAULT_INPUT_TOKENS = 120;
const DEFAULT_OUTPUT_TOKENS = 30;

/** Texts out of a message's content: a string, or parts with `text` (both providers' shapes). */
function texts(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (Array.isArray(content)) return content.flatMap((part: { text?: unknown }) => (typeof part?.text === 'string' ? [part.text] : []));
  return [];
}

function promptOf(body: Record<string, unknown>): string {
  const parts = [...texts(body.system)];
  if (Array.isArray(body.messages)) for (const m of body.messages as { content?: unknown }[]) parts.push(...texts(m?.content));
  return parts.join('\n');
}

function openAiCompletion(body: Record<string, unknown>, answer: { content: string; inputTokens?: number; outputTokens?: number }, id: number) {
  const input = answer.inputTokens ?? DEFAULT_INPUT_TOKENS;
  const output = answer.outputTokens ?? DEFAULT_OUTPUT_TOKENS;
  return {
    id: `chatcmpl-fake-${id}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: body.model,
    choices: [{ index: 0, message: { role: 'assistant', content: answer.content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: input, completion_tokens: output, total_tokens: input + output },
  };
}

function anthropicMessage(body: Record<string, unknown>, answer: { content: string; inputTokens?: number; outputTokens?: number }, id: number) {
  // Models without native structured output get a forced `json` tool; answer through it then.
  const tools = Array.isArray(body.tools) ? (body.tools as { name?: string }[]) : [];
  let block: unknown = { type: 'text', text: answer.content };
  if (tools.some((t) => t.name === 'json')) {
    try {
      block = { type: 'tool_use', id: `toolu_fake_${id}`, name: 'json', input: JSON.parse(answer.content) as unknown };
    } catch {
      // not JSON: answer as text, like a model ignoring the tool
    }
  }
  return {
    id: `msg_fake_${id}`,
    type: 'message',
    role: 'assistant',
    model: body.model,
    content: [block],
    stop_reason: (block as { type: string }).type === 'tool_use' ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: answer.inputTokens ?? DEFAULT_INPUT_TOKENS, output_tokens: answer.outputTokens ?? DEFAULT_OUTPUT_TOKENS },
  };
}

function errorBody(anthropic: boolean, status: number, message: string) {
  if (anthropic) return { type: 'error', error: { type: status === 401 ? 'authentication_error' : 'api_error', message } };
  return { error: { message, type: status === 401 ? 'invalid_request_error' : 'server_error', code: status === 401 ? 'invalid_api_key' : null } };
}

export async function startFakeLlm(): Promise<FakeLlm> {
  const answers: FakeLlmAnswer[] = [];
  const requests: FakeLlmRequest[] = [];
  const pending = new Set<{ res: http.ServerResponse; timer?: NodeJS.Timeout }>();
  let sequence = 0;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://fake').pathname;
      const text = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        body = { raw: text };
      }
      const anthropic = path === '/v1/messages';
      if (req.method !== 'POST' || (path !== '/v1/chat/completions' && !anthropic)) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify(errorBody(anthropic, 404, `Unknown path ${path}`)));
        return;
      }
      requests.push({ path, headers: req.headers, body, promptText: promptOf(body) });
      const answer = answers.shift() ?? { status: 500, message: 'Nothing scripted for this request' };
      const id = ++sequence;
      if (answer === 'hang') {
        const entry = { res };
        pending.add(entry);
        res.on('close', () => pending.delete(entry));
        return;
      }
      const send = () => {
        if (res.destroyed) return;
        if ('status' in answer) {
          res.writeHead(answer.status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(answer.body ?? errorBody(anthropic, answer.status, answer.message ?? `HTTP ${answer.status}`)));
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(anthropic ? anthropicMessage(body, answer, id) : openAiCompletion(body, answer, id)));
      };
      if (!answer.delayMs) return send();
      const entry: { res: http.ServerResponse; timer?: NodeJS.Timeout } = { res };
      entry.timer = setTimeout(() => {
        pending.delete(entry);
        send();
      }, answer.delayMs);
      pending.add(entry);
      res.on('close', () => {
        clearTimeout(entry.timer);
        pending.delete(entry);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    baseUrl: `${url}/v1`,
    requests,
    script: (...next) => void answers.push(...next),
    reset() {
      answers.length = 0;
      requests.length = 0;
    },
    async close() {
      for (const { res, timer } of pending) {
        clearTimeout(timer);
        res.destroy();
      }
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
