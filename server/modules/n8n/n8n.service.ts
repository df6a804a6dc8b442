/**
 * The n8n connection and n8n's public API (issue 13 §5): one connection per installation (base
 * URL + API key, the key sealed with SECRETS_KEY and never returned or logged), the connection
 * test (the instance's workflow count or the exact error), the instance's workflows with the
 * webhook URL of their Webhook node, activate/deactivate, one execution's outcome; and the
 * n8n tab's webhook Test (a server-side POST of the payload template, the real answer).
 *
 * Every request goes through the guarded HTTP client. The connection's origin (scheme, host and
 * port — nothing else) is admitted there even on a loopback or private address
 * (`TrustedOrigins`): self-hosted n8n usually lives on a private network. The origin is set
 * whenever this service reads the connection, and at start (`refreshTrustedOrigin`).
 */
import type { Logger } from 'pino';
import {
  N8N_NOT_CONNECTED,
  n8nExecutionStatus,
  n8nPayloadTemplate,
  type N8nConnectionTest,
  type N8nConnectionView,
  type N8nExecution,
  type N8nWebhookTestResult,
  type N8nWorkflow,
  type SaveN8nConnectionInput,
} from '../../../common/api/n8n';
import type { Clock } from '../../lib/clock';
import { AppError, notFound } from '../../lib/errors';
import { GuardedHttpError, type GuardedHttp, type TrustedOrigins } from '../../lib/guarded-http';
import { normaliseHost, refusalMessage, refusedRangeForConfiguredHost } from '../../lib/outbound-address';
import type { SecretBox } from '../../lib/secret-box';
import type { N8nConnectionRepository, N8nConnectionRow } from './n8n-connection.repository';

/** The owner name of the connection's entry in `TrustedOrigins`. */
export const N8N_TRUSTED_ORIGIN = 'n8n';

const API_TIMEOUT_MS = 10_000;
const WEBHOOK_TEST_TIMEOUT_MS = 10_000;
/** n8n's public API pages hold at most 250 workflows. */
const PAGE_SIZE = 250;
/** 100 pages: 25,000 workflows, far beyond any instance; a cursor loop cannot run away. */
const MAX_PAGES = 100;
/** A page of 250 whole workflows (nodes included) or an execution with its data can be large. */
const MAX_API_BODY_BYTES = 32 * 1024 * 1024;
const WEBHOOK_ANSWER_BYTES = 64 * 1024;
const EXCERPT_CHARS = 1000;

export interface N8nServiceDeps {
  connections: N8nConnectionRepository;
  secretBox: SecretBox;
  http: GuardedHttp;
  trustedOrigins: TrustedOrigins;
  clock: Clock;
  /** Parley's public origin, for the payload template's callback URLs. */
  publicUrl: string;
  userAgent: string;
  logger: Logger;
  /** Time limit of each call to n8n's API (default 10 s). */
  apiTimeoutMs?: number;
}

interface Connection {
  baseUrl: string;
  apiKey: string;
  row: N8nConnectionRow;
}

/** n8n answered, with an error status. */
class N8nAnswerError extends Error {
  constructor(
    readonly status: number,
    readonly n8nMessage: string,
  ) {
    super(`n8n answered ${status}: ${n8nMessage}`);
  }
}

/** What n8n's public API returns for a workflow (the fields read here). */
interface ApiWorkflow {
  id?: unknown;
  name?: unknown;
  active?: unknown;
  updatedAt?: unknown;
  nodes?: unknown;
}

interface ApiNode {
  type?: unknown;
  disabled?: unknown;
  parameters?: { httpMethod?: unknown; path?: unknown } | null;
}

/** The URL an administrator typed, as stored: http(s), no credentials, query or fragment, no trailing slash. */
export function normaliseBaseUrl(input: string): { url: string } | { error: string } {
  let parsed: URL;
  try {
    parsed = new URL(input.trim());
  } catch {
    return { error: 'Enter a valid URL, like http://n8n.example.internal:5678' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { error: 'Only http and https URLs are allowed' };
  if (parsed.username || parsed.password) return { error: 'Leave credentials out of the URL: the API key goes in its own field' };
  if (parsed.search || parsed.hash) return { error: "Enter only n8n's address, without a query or fragment" };
  const host = normaliseHost(parsed.hostname);
  const range = refusedRangeForConfiguredHost(host);
  if (range && range !== 'not an IP address') return { error: refusalMessage(host, range) };
  // Pasted from the API's docs or a webhook URL: keep the instance's address only.
  const path = parsed.pathname.replace(/\/+$/u, '').replace(/\/(api\/v1|webhook|webhook-test)$/u, '');
  return { url: `${parsed.origin}${path}` };
}

/** The production webhook URL of the workflow's first enabled Webhook node that takes POST. */
export function webhookOf(baseUrl: string, nodes: unknown): { url: string; path: string } | null {
  if (!Array.isArray(nodes)) return null;
  for (const node of nodes as ApiNode[]) {
    if (node?.type !== 'n8n-nodes-base.webhook' || node.disabled === true) continue;
    const method = node.parameters?.httpMethod ?? 'GET'; // the node's default
    const methods = Array.isArray(method) ? method : [method];
    if (!methods.includes('POST')) continue;
    const path = typeof node.parameters?.path === 'string' ? node.parameters.path.replace(/^\/+/u, '') : '';
    if (path === '') continue;
    return { url: `${baseUrl}/webhook/${path}`, path };
  }
  return null;
}

function toWorkflow(baseUrl: string, raw: ApiWorkflow): N8nWorkflow {
  const webhook = webhookOf(baseUrl, raw.nodes);
  return {
    id: idOf(raw.id) ?? '',
    name: typeof raw.name === 'string' ? raw.name : '',
    active: raw.active === true,
    webhookUrl: webhook?.url ?? null,
    webhookPath: webhook?.path ?? null,
    updatedAt: typeof raw.updatedAt === 'string' ? raw.updatedAt : null,
  };
}

/** n8n's ids: strings (numbers in older versions). */
function idOf(value: unknown): string | null {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : null;
}

function excerpt(body: Buffer): string {
  return body.toString('utf8').slice(0, EXCERPT_CHARS);
}

/** n8n's error answers are `{ message }` (public API) or `{ code, message, hint }` (webhooks). */
function answerMessage(body: Buffer): string {
  const text = body.toString('utf8');
  try {
    const parsed = JSON.parse(text) as { message?: unknown };
    if (typeof parsed.message === 'string' && parsed.message !== '') return parsed.message;
  } catch {
    // not JSON
  }
  return text.trim().slice(0, 300) || '(no message)';
}

export class N8nService {
  readonly #timeoutMs: number;

  constructor(private readonly deps: N8nServiceDeps) {
    this.#timeoutMs = deps.apiTimeoutMs ?? API_TIMEOUT_MS;
  }

  /** Admits the stored connection's origin in the guarded client (at start, and before a request another module makes to it). */
  async refreshTrustedOrigin(): Promise<void> {
    const row = await this.deps.connections.find();
    this.deps.trustedOrigins.set(N8N_TRUSTED_ORIGIN, row ? row.baseUrl : null);
  }

  async getConnection(): Promise<N8nConnectionView | null> {
    const row = await this.deps.connections.find();
    this.deps.trustedOrigins.set(N8N_TRUSTED_ORIGIN, row ? row.baseUrl : null);
    return row ? this.#toView(row) : null;
  }

  /**
   * Saves the base URL and key, then tests them. The key may be left out to keep the stored one,
   * except when nothing is stored or the address moves to another origin: a stored key is never
   * sent to an address it was not entered for.
   */
  async saveConnection(input: SaveN8nConnectionInput, userId: string): Promise<N8nConnectionView> {
    const normalised = normaliseBaseUrl(input.baseUrl);
    if ('error' in normalised) throw new AppError('VALIDATION_ERROR', normalised.error, { fields: { baseUrl: normalised.error } });
    const current = await this.deps.connections.find();
    let apiKeySealed: string;
    if (input.apiKey !== undefined) {
      apiKeySealed = this.deps.secretBox.seal(input.apiKey);
    } else if (current && new URL(current.baseUrl).origin === new URL(normalised.url).origin) {
      apiKeySealed = current.apiKeySealed;
    } else {
      const message = current ? 'Enter the API key again when the n8n address changes' : 'Enter the n8n API key';
      throw new AppError('VALIDATION_ERROR', message, { fields: { apiKey: message } });
    }
    await this.deps.connections.save({ baseUrl: normalised.url, apiKeySealed, updatedBy: userId, now: this.deps.clock.now() });
    this.deps.trustedOrigins.set(N8N_TRUSTED_ORIGIN, normalised.url);
    this.deps.logger.info({ baseUrl: normalised.url, userId }, 'n8n connection saved');
    await this.testConnection();
    return (await this.getConnection())!;
  }

  async deleteConnection(): Promise<void> {
    if (!(await this.deps.connections.delete())) throw notFound('n8n connection');
    this.deps.trustedOrigins.set(N8N_TRUSTED_ORIGIN, null);
  }

  /** Counts the instance's workflows through the public API (the key's first use); records the outcome. */
  async testConnection(): Promise<N8nConnectionTest> {
    const connection = await this.#connection();
    const testedAt = this.deps.clock.now();
    let outcome: { ok: boolean; message: string; workflowCount: number | null };
    try {
      const count = (await this.#allWorkflows(connection)).length;
      outcome = { ok: true, message: `Connected to n8n: ${count} ${count === 1 ? 'workflow' : 'workflows'}`, workflowCount: count };
    } catch (error) {
      outcome = { ok: false, message: this.#describe(error, connection), workflowCount: null };
    }
    await this.deps.connections.recordTest(connection.row.baseUrl, connection.row.apiKeySealed, { ...outcome, testedAt });
    return { ...outcome, testedAt: testedAt.toISOString() };
  }

  async listWorkflows(): Promise<N8nWorkflow[]> {
    const connection = await this.#connection();
    const workflows = await this.#call(connection, () => this.#allWorkflows(connection));
    return workflows.map((raw) => toWorkflow(connection.baseUrl, raw));
  }

  async getWorkflow(id: string): Promise<N8nWorkflow> {
    const connection = await this.#connection();
    const raw = await this.#call(connection, () => this.#api<ApiWorkflow>(connection, 'GET', `/workflows/${encodeURIComponent(id)}`), `n8n workflow ${id}`);
    return toWorkflow(connection.baseUrl, raw);
  }

  /** Activates or deactivates the workflow in n8n; returns n8n's state after it. */
  async setActive(id: string, active: boolean): Promise<N8nWorkflow> {
    const connection = await this.#connection();
    const path = `/workflows/${encodeURIComponent(id)}/${active ? 'activate' : 'deactivate'}`;
    const raw = await this.#call(connection, () => this.#api<ApiWorkflow>(connection, 'POST', path), `n8n workflow ${id}`);
    this.deps.logger.info({ workflowId: id, active: raw.active === true }, 'n8n workflow switched');
    return toWorkflow(connection.baseUrl, raw);
  }

  /** One execution's outcome, with n8n's error message when it failed. */
  async getExecution(id: string): Promise<N8nExecution> {
    const connection = await this.#connection();
    const raw = await this.#call(
      connection,
      () =>
        this.#api<{
          id?: unknown;
          workflowId?: unknown;
          status?: unknown;
          finished?: unknown;
          startedAt?: unknown;
          stoppedAt?: unknown;
          data?: { resultData?: { error?: { message?: unknown } } };
        }>(connection, 'GET', `/executions/${encodeURIComponent(id)}?includeData=true`),
      `n8n execution ${id}`,
    );
    const message = raw.data?.resultData?.error?.message;
    return {
      id: idOf(raw.id) ?? id,
      workflowId: idOf(raw.workflowId),
      status: n8nExecutionStatus.safeParse(raw.status).data ?? 'unknown',
      finished: raw.finished === true,
      startedAt: typeof raw.startedAt === 'string' ? raw.startedAt : null,
      stoppedAt: typeof raw.stoppedAt === 'string' ? raw.stoppedAt : null,
      errorMessage: typeof message === 'string' ? message : null,
    };
  }

  /**
   * n8n's word on an automation execution that went silent (the automations module's
   * ExecutionReconciler): its final status and error when it ended, 'running' while n8n still runs
   * it, null when n8n cannot judge it — no connection, a workflow URL on another address than the
   * connected instance's, or an execution n8n does not know.
   */
  async executionOutcome(input: { workflowUrl: string | null; executionId: string }): Promise<{ status: 'success' | 'error' | 'canceled'; error: string | null } | 'running' | null> {
    const row = await this.deps.connections.find();
    if (!row || !input.workflowUrl) return null;
    let sameOrigin = false;
    try {
      sameOrigin = new URL(input.workflowUrl).origin === new URL(row.baseUrl).origin;
    } catch {
      return null;
    }
    if (!sameOrigin || !/^[A-Za-z0-9_-]{1,100}$/u.test(input.executionId)) return null;
    this.deps.trustedOrigins.set(N8N_TRUSTED_ORIGIN, row.baseUrl);
    let execution: N8nExecution;
    try {
      execution = await this.getExecution(input.executionId);
    } catch (error) {
      if (error instanceof AppError && error.code === 'NOT_FOUND') return null;
      throw error;
    }
    switch (execution.status) {
      case 'success':
        return { status: 'success', error: null };
      case 'canceled':
        return { status: 'canceled', error: execution.errorMessage };
      case 'error':
      case 'crashed':
        return { status: 'error', error: execution.errorMessage ?? `n8n ended execution ${execution.id} with status ${execution.status}` };
      case 'new':
      case 'running':
      case 'waiting':
      case 'unknown':
        return execution.finished ? { status: 'success', error: null } : 'running';
    }
  }

  payloadTemplate(): Record<string, unknown> {
    return n8nPayloadTemplate(this.deps.publicUrl, this.deps.clock.now());
  }

  /**
   * The n8n tab's Test: POSTs the payload (the template by default) to the URL, server-side,
   * through the guarded client; the real answer or the real reason none came.
   */
  async testWebhook(url: string, payload?: Record<string, unknown>): Promise<N8nWebhookTestResult> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new AppError('VALIDATION_ERROR', 'Enter a valid webhook URL', { fields: { url: 'Enter a valid webhook URL' } });
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new AppError('VALIDATION_ERROR', 'Only http and https URLs are allowed', { fields: { url: 'Only http and https URLs are allowed' } });
    }
    if (parsed.username || parsed.password) {
      const message = 'Leave credentials out of the webhook URL';
      throw new AppError('VALIDATION_ERROR', message, { fields: { url: message } });
    }
    // The n8n instance's own webhooks are admitted on a private address: read its current origin.
    await this.refreshTrustedOrigin();
    const body = JSON.stringify(payload ?? this.payloadTemplate());
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const answer = await this.deps.http.request(parsed, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/plain;q=0.9, */*;q=0.5', 'user-agent': this.deps.userAgent },
        body,
        timeoutMs: WEBHOOK_TEST_TIMEOUT_MS,
        maxBodyBytes: WEBHOOK_ANSWER_BYTES,
        oversize: 'truncate',
      });
      const ok = answer.status >= 200 && answer.status < 300;
      return {
        ok,
        status: answer.status,
        durationMs: elapsed(),
        bodyExcerpt: excerpt(answer.body),
        contentType: answer.headers.get('content-type'),
        message: ok ? 'Webhook Test Successful' : `The webhook answered ${answer.status}: ${answerMessage(answer.body)}`,
      };
    } catch (error) {
      const durationMs = elapsed();
      return { ok: false, status: null, durationMs, bodyExcerpt: '', contentType: null, message: this.#describeWebhookFailure(error) };
    }
  }

  #toView(row: N8nConnectionRow): N8nConnectionView {
    return {
      baseUrl: row.baseUrl,
      hasApiKey: row.apiKeySealed !== '',
      updatedBy: row.updatedBy ? { id: row.updatedBy, name: row.updatedByName ?? '' } : null,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      lastTest:
        row.lastTestedAt && row.lastTestOk !== null
          ? { ok: row.lastTestOk, message: row.lastTestMessage ?? '', workflowCount: row.lastTestWorkflowCount, testedAt: row.lastTestedAt.toISOString() }
          : null,
      webhookBaseUrl: `${row.baseUrl}/webhook/`,
    };
  }

  async #connection(): Promise<Connection> {
    const row = await this.deps.connections.find();
    this.deps.trustedOrigins.set(N8N_TRUSTED_ORIGIN, row ? row.baseUrl : null);
    if (!row) throw new AppError('CONFLICT', N8N_NOT_CONNECTED);
    return { baseUrl: row.baseUrl, apiKey: this.deps.secretBox.open(row.apiKeySealed), row };
  }

  /** Runs a call to n8n; its failure becomes a 404 (`what` not found) or a 502 with the exact reason. */
  async #call<T>(connection: Connection, fn: () => Promise<T>, what?: string): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (what && error instanceof N8nAnswerError && error.status === 404) throw new AppError('NOT_FOUND', `${what} not found`, { details: { n8n: error.n8nMessage } });
      throw new AppError('BAD_GATEWAY', this.#describe(error, connection));
    }
  }

  async #allWorkflows(connection: Connection): Promise<ApiWorkflow[]> {
    const workflows: ApiWorkflow[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < MAX_PAGES; page++) {
      const query = new URLSearchParams({ limit: String(PAGE_SIZE), excludePinnedData: 'true' });
      if (cursor) query.set('cursor', cursor);
      const answer: { data?: unknown; nextCursor?: unknown } = await this.#api(connection, 'GET', `/workflows?${query}`);
      if (!Array.isArray(answer.data)) throw new Error('the answer has no workflow list: is this the address of n8n?');
      workflows.push(...(answer.data as ApiWorkflow[]));
      cursor = typeof answer.nextCursor === 'string' && answer.nextCursor !== '' ? answer.nextCursor : null;
      if (!cursor) return workflows;
    }
    return workflows;
  }

  /** One call to n8n's public API: the parsed JSON of a 2xx answer, else N8nAnswerError or the guarded client's error. */
  async #api<T>(connection: Connection, method: 'GET' | 'POST', path: string): Promise<T> {
    const answer = await this.deps.http.request(`${connection.baseUrl}/api/v1${path}`, {
      method,
      headers: { 'x-n8n-api-key': connection.apiKey, accept: 'application/json', 'user-agent': this.deps.userAgent },
      timeoutMs: this.#timeoutMs,
      maxBodyBytes: MAX_API_BODY_BYTES,
    });
    if (answer.status < 200 || answer.status >= 300) throw new N8nAnswerError(answer.status, answerMessage(answer.body));
    try {
      return JSON.parse(answer.body.toString('utf8')) as T;
    } catch {
      const type = answer.headers.get('content-type') ?? 'no content type';
      throw new Error(`the answer (${answer.status}, ${type}) is not JSON: is this the address of n8n?`);
    }
  }

  /** The exact reason a call to n8n failed, for the administrator (never the key). */
  #describe(error: unknown, connection: Connection): string {
    if (error instanceof N8nAnswerError) {
      return error.status === 401 || error.status === 403
        ? `n8n refused the API key (${error.status}: ${error.n8nMessage})`
        : `n8n answered ${error.status}: ${error.n8nMessage}`;
    }
    if (error instanceof GuardedHttpError) {
      switch (error.kind) {
        case 'refused':
          return error.message;
        case 'timeout':
          return `n8n at ${connection.baseUrl} did not answer within ${Math.round(this.#timeoutMs / 1000)} seconds`;
        case 'too_large':
          return `n8n's answer was too large: ${error.message}`;
        case 'aborted':
        case 'network':
          return `Could not reach n8n at ${connection.baseUrl}: ${error.reason}`;
      }
    }
    return `Unexpected answer from ${connection.baseUrl}: ${error instanceof Error ? error.message : String(error)}`;
  }

  #describeWebhookFailure(error: unknown): string {
    if (error instanceof GuardedHttpError) {
      switch (error.kind) {
        case 'refused':
          return error.message;
        case 'timeout':
          return `No answer within ${WEBHOOK_TEST_TIMEOUT_MS / 1000} seconds`;
        case 'too_large':
        case 'aborted':
        case 'network':
          return `Could not reach the webhook: ${error.reason}`;
      }
    }
    return `Could not reach the webhook: ${error instanceof Error ? error.message : String(error)}`;
  }
}
