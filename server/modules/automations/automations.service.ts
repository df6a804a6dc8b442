/**
 * Automations (issue 13 §3–§4): a client's automation, Run (a signed POST to its workflow URL, made
 * by a job), the workflow's callbacks (step messages and status reports, authenticated by the
 * execution's own token), the silence timeout and the reconciliation with n8n.
 *
 * Who may do what (the routes' access lists plus the scope here): admins create, edit, delete and
 * rotate secrets; admins, managers and a client's own users list, read, run and change the status;
 * a client user never sees another client's automation, execution or message (404).
 *
 * An execution's status only moves forward (running → waiting → success | error | canceled), from
 * whichever source — the trigger's answer, a callback, the silence check, n8n — under a row lock;
 * `finished_at` and `duration_ms` are set once, when it reaches a final status.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import {
  type AutomationEventTrigger,
  automationEventTrigger,
  type AutomationMessageView,
  type AutomationView,
  CALLBACK_GRACE_MS,
  type CreatedAutomation,
  type createAutomationInput,
  EXECUTION_STATUS_RANK,
  type ExecutionStatus,
  type executionUpdateInput,
  type ExecutionView,
  FINAL_EXECUTION_STATUSES,
  type stepMessageInput,
  type AutomationTrigger,
  triggerMatches,
  type updateAutomationInput,
} from '../../../common/api/automations';
import { installationEventRefusal, isInstallationEvent, type PublicEventEnvelope, type PublicEventType } from '../../../common/api/events';
import type { z } from 'zod';
import type { Db } from '../../db/database';
import type { AutomationStartedHow, AutomationStatus } from '../../db/schema';
import type { EventBus } from '../../events/event-bus';
import type { PerformedBy } from '../../events/domain-events';
import type { PublicEventSink, StoredPublicEvent } from '../../events/public-events';
import type { SessionUser } from '../../http/access';
import { type Scope, scopeFor } from '../../http/scope';
import type { JobQueue } from '../../jobs/queue';
import type { Clock } from '../../lib/clock';
import { hmacSha256Hex, randomToken, safeEqual, sha256Hex } from '../../lib/crypto';
import { AppError, notFound } from '../../lib/errors';
import { GuardedHttpError, type GuardedHttp } from '../../lib/guarded-http';
import type { SecretBox } from '../../lib/secret-box';
import { signedHeaders } from '../channels';
import type { RealtimeLoaders } from '../realtime';
import { checkExecutionSilenceJob, runAutomationJob } from './automation-jobs';
import { type AutomationRow, AutomationsRepository, type ExecutionRow, type MessageRow } from './automations.repository';

export type CreateAutomationCommand = z.output<typeof createAutomationInput>;
export type UpdateAutomationCommand = z.output<typeof updateAutomationInput>;
export type StepMessageCommand = z.output<typeof stepMessageInput>;
export type ExecutionUpdateCommand = z.output<typeof executionUpdateInput>;

/** Executions listed per automation (spec §7: newest first, limit 50). */
export const EXECUTIONS_LIMIT = 50;
/** Messages listed per automation (spec §7: newest first, limit 100). */
export const MESSAGES_LIMIT = 100;
/** The trigger request's time limit (issue 13 §4). */
export const TRIGGER_TIMEOUT_MS = 10_000;
/** Run refused while the automation's client has paused its automation (docs/client-dashboard.md). */
export const AUTOMATION_PAUSED_MESSAGE = 'Automation is paused for this client. Resume it on the client dashboard to run automations.';
/** How much of the workflow's answer is read (for its execution id). */
const TRIGGER_ANSWER_MAX_BYTES = 64 * 1024;
/** While n8n says an execution still runs, it is asked again after this, doubling, up to the max. */
const RECONCILE_BACKOFF_MS = 60_000;
const RECONCILE_BACKOFF_MAX_MS = 15 * 60_000;

/**
 * n8n's own word on an execution (helper C's N8nService, wired in app.ts). `null`: it cannot tell
 * (the automation is not linked to the connected n8n, no connection, unknown execution) — the
 * silence timeout then applies. Thrown errors count as "ask again later".
 */
export interface ExecutionReconciler {
  finalStatus(input: {
    workflowId: string | null;
    workflowUrl: string | null;
    executionId: string;
  }): Promise<{ status: 'success' | 'error' | 'canceled'; error?: string | null } | 'running' | null>;
}

/** The execution a valid callback token belongs to. */
export interface CallbackContext {
  executionId: string;
  automationId: string;
  clientId: string | null;
}

/** What helper B's template assignment calls (`AutomationCreator` on its side). */
export interface CreateFromTemplateCommand {
  clientId: string;
  name: string;
  description?: string | null;
  workflowUrl: string | null;
  workflowId?: string | null;
  /** The template's workflow_config (triggers…), stored as the automation's config. */
  config?: Record<string, unknown>;
  createdBy: string | null;
  status?: 'active' | 'paused' | 'inactive';
}

export interface AutomationsServiceDeps {
  db: Db;
  queue: JobQueue;
  events: EventBus;
  clock: Clock;
  logger: Logger;
  secretBox: SecretBox;
  /** The guarded client (server/lib/guarded-http.ts): the only way to a workflow URL. */
  http: GuardedHttp;
  /** Origin of the callback URLs given to workflows. */
  publicUrl: string;
  /** The installation's secret the executions' callback tokens are derived from (the auth secret). */
  callbackTokenKey: string;
  silenceTimeoutMs: number;
  reconciler?: ExecutionReconciler;
  /**
   * Called before each trigger request: the n8n module re-reads its connection here, so a workflow
   * URL on the connected (private) n8n instance is admitted on every instance sharing the database.
   */
  beforeTrigger?: () => Promise<void>;
  userAgent?: string;
}

const iso = (d: Date | string): string => new Date(d).toISOString();
const isFinal = (status: ExecutionStatus): boolean => FINAL_EXECUTION_STATUSES.includes(status);
const STAFF: Scope = { clientId: null };

function toAutomationView(row: AutomationRow): AutomationView {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    workflow_id: row.workflowId,
    workflow_url: row.workflowUrl,
    status: row.status,
    config: row.config,
    client_id: row.clientId,
    created_by: row.createdBy,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

function toExecutionView(row: ExecutionRow): ExecutionView {
  return {
    id: row.id,
    automation_id: row.automationId,
    status: row.status,
    started_at: iso(row.startedAt),
    finished_at: row.finishedAt ? iso(row.finishedAt) : null,
    duration_ms: row.durationMs === null ? null : Number(row.durationMs),
    error_message: row.errorMessage,
    execution_id: row.executionId,
    started_how: row.startedHow,
    started_by: row.startedBy,
    trigger_event_id: row.triggerEventId,
    trigger_event_type: row.triggerEventType,
  };
}

function toMessageView(row: MessageRow): AutomationMessageView {
  return {
    id: row.id,
    automation_id: row.automationId,
    execution_id: row.executionId,
    message_type: row.messageType,
    step_name: row.stepName,
    content: row.content,
    metadata: row.metadata,
    timestamp: iso(row.timestamp),
  };
}

function describeTriggerError(error: unknown): string {
  if (error instanceof GuardedHttpError) {
    switch (error.kind) {
      case 'refused':
        return error.message;
      case 'timeout':
        return `The workflow URL did not answer within ${TRIGGER_TIMEOUT_MS / 1000} seconds`;
      case 'aborted':
      case 'too_large':
      case 'network':
        return `Could not reach the workflow URL (${error.reason})`;
    }
  }
  return `Could not reach the workflow URL (${error instanceof Error ? error.message : String(error)})`;
}

/** `execution_id` or `id` of a JSON object answer, as a string (numbers too), else null. */
function externalIdOf(body: Buffer): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return null;
  }
  if (Array.isArray(parsed)) parsed = parsed[0]; // n8n's "respond with all items"
  if (typeof parsed !== 'object' || parsed === null) return null;
  const record = parsed as Record<string, unknown>;
  for (const value of [record.execution_id, record.executionId, record.id]) {
    if ((typeof value === 'string' && value.trim() !== '') || (typeof value === 'number' && Number.isFinite(value))) {
      return String(value).trim().slice(0, 200);
    }
  }
  return null;
}

function formatDuration(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} minute${ms === 60_000 ? '' : 's'}`;
  const seconds = Math.max(1, Math.round(ms / 1000));
  return `${seconds} second${seconds === 1 ? '' : 's'}`;
}

/** A stored `config.triggers`, entry by entry: what does not parse (never written since validation) matches nothing. */
function storedTriggers(value: unknown): AutomationEventTrigger[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry) => {
    const parsed = automationEventTrigger.safeParse(entry);
    return parsed.success ? [parsed.data] : [];
  });
}

/** The triggers of `config`, when it has valid ones (the routes validated them). */
function configTriggers(config: Record<string, unknown> | undefined): AutomationEventTrigger[] {
  return storedTriggers(config?.triggers);
}

/** The automation whose run an `automation.execution.finished` event reports. */
function finishedAutomationOf(event: StoredPublicEvent): string | undefined {
  const execution = event.envelope.data.execution as { automation_id?: unknown } | undefined;
  return typeof execution?.automation_id === 'string' ? execution.automation_id : undefined;
}

/** Executions inserted per statement when one event batch starts many automations. */
const EVENT_EXECUTIONS_CHUNK = 500;

/**
 * Also the events module's `PublicEventSink` (issue 14 §3): `accept` starts the automations whose
 * triggers match, in the transaction that stores the events.
 */
export class AutomationsService implements PublicEventSink {
  /** Whether any automation with an event trigger is active (automations.sql.ts). */
  readonly interest = 'parley_automations_interest';
  readonly #repository: AutomationsRepository;
  readonly #logger: Logger;

  constructor(private readonly deps: AutomationsServiceDeps) {
    this.#repository = new AutomationsRepository(deps.db);
    this.#logger = deps.logger.child({ component: 'automations' });
  }

  // Automations

  async list(user: SessionUser): Promise<AutomationView[]> {
    return (await this.#repository.list(scopeFor(user))).map(toAutomationView);
  }

  async get(user: SessionUser, id: string): Promise<AutomationView> {
    return toAutomationView(await this.#visible(user, id));
  }

  async #visible(user: SessionUser, id: string): Promise<AutomationRow> {
    const row = await this.#repository.find(id, scopeFor(user));
    if (!row) throw notFound('Automation');
    return row;
  }

  #checkUrl(url: string | null | undefined): void {
    if (!url) return;
    const refusal = this.deps.http.checkUrl(url);
    if (refusal) throw new AppError('VALIDATION_ERROR', refusal, { fields: { workflow_url: refusal } });
  }

  async #withClientCheck<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      const e = error as { code?: unknown; constraint?: unknown } | null;
      if (e?.code === '23503' && typeof e.constraint === 'string' && e.constraint.includes('client_id')) {
        throw new AppError('VALIDATION_ERROR', 'Client not found', { fields: { client_id: 'Client not found' }, cause: error });
      }
      throw error;
    }
  }

  /**
   * An automation of a client only ever receives that client's events: a trigger filtering on
   * another client, or on an installation-wide event (no client's: contact_form.submitted), would
   * never run, so it is refused.
   */
  #checkTriggerClients(config: Record<string, unknown>, clientId: string | null): void {
    if (clientId === null) return;
    configTriggers(config).forEach((trigger, i) => {
      if (isInstallationEvent(trigger.event)) {
        const message = installationEventRefusal(trigger.event);
        throw new AppError('VALIDATION_ERROR', message, { fields: { [`config.triggers.${i}.event`]: message } });
      }
      const filtered = trigger.filters?.client_id;
      if (filtered && filtered !== clientId) {
        const message = 'This automation only receives its own client’s events; remove this client filter or choose that client';
        throw new AppError('VALIDATION_ERROR', message, { fields: { [`config.triggers.${i}.filters.client_id`]: message } });
      }
    });
  }

  async create(user: SessionUser, input: CreateAutomationCommand): Promise<CreatedAutomation> {
    this.#checkUrl(input.workflow_url);
    this.#checkTriggerClients(input.config, input.client_id ?? null);
    const secret = randomToken();
    const id = await this.#withClientCheck(() =>
      this.#repository.insert({
        name: input.name,
        description: input.description ?? null,
        workflowId: input.workflow_id,
        workflowUrl: input.workflow_url,
        status: input.status,
        config: input.config,
        clientId: input.client_id ?? null,
        createdBy: user.id,
        sealedSecret: this.deps.secretBox.seal(secret),
      }),
    );
    return { automation: toAutomationView((await this.#repository.find(id, STAFF))!), signing_secret: secret };
  }

  /** Template assignment (workflows module): the client's automation, made from the template. */
  /** `db`: the caller's transaction, so the automation is made together with what caused it (a template assignment) or not at all. */
  async createFromTemplate(command: CreateFromTemplateCommand, db?: Db): Promise<AutomationView> {
    this.#checkUrl(command.workflowUrl);
    const repository = db ? new AutomationsRepository(db) : this.#repository;
    const id = await this.#withClientCheck(() =>
      repository.insert({
        name: command.name.trim().slice(0, 200) || 'Automation',
        description: command.description?.trim().slice(0, 2000) || null,
        workflowId: command.workflowId?.trim().slice(0, 200) || null,
        workflowUrl: command.workflowUrl?.trim() || null,
        status: command.status ?? 'inactive',
        config: command.config ?? {},
        clientId: command.clientId,
        createdBy: command.createdBy,
        sealedSecret: this.deps.secretBox.seal(randomToken()),
      }),
    );
    return toAutomationView((await repository.find(id, STAFF))!);
  }

  async update(id: string, input: UpdateAutomationCommand): Promise<AutomationView> {
    this.#checkUrl(input.workflow_url);
    if (input.config !== undefined || input.client_id !== undefined) {
      const current = await this.#repository.find(id, STAFF);
      if (!current) throw notFound('Automation');
      this.#checkTriggerClients(input.config ?? current.config, input.client_id === undefined ? current.clientId : input.client_id);
    }
    const updated = await this.#withClientCheck(() =>
      this.#repository.update(
        id,
        {
          name: input.name,
          description: input.description,
          workflowId: input.workflow_id,
          workflowUrl: input.workflow_url,
          status: input.status,
          config: input.config,
          clientId: input.client_id,
        },
        STAFF,
      ),
    );
    if (!updated) throw notFound('Automation');
    return toAutomationView((await this.#repository.find(id, STAFF))!);
  }

  async remove(id: string): Promise<void> {
    if (!(await this.#repository.delete(id))) throw notFound('Automation');
  }

  /** Pause/resume (spec: the toggle is the web's; the server takes the target status). */
  async setStatus(user: SessionUser, id: string, status: AutomationStatus): Promise<AutomationView> {
    const scope = scopeFor(user);
    if (!(await this.#repository.update(id, { status }, scope))) throw notFound('Automation');
    return toAutomationView((await this.#repository.find(id, scope))!);
  }

  /** A new signing secret, shown once (the old one stops signing at once). */
  async rotateSecret(id: string): Promise<CreatedAutomation> {
    const secret = randomToken();
    if (!(await this.#repository.update(id, { sealedSecret: this.deps.secretBox.seal(secret) }, STAFF))) throw notFound('Automation');
    return { automation: toAutomationView((await this.#repository.find(id, STAFF))!), signing_secret: secret };
  }

  // Executions

  async listExecutions(user: SessionUser, automationId: string): Promise<ExecutionView[]> {
    await this.#visible(user, automationId);
    return (await this.#repository.listExecutions(automationId, EXECUTIONS_LIMIT)).map(toExecutionView);
  }

  async getExecution(user: SessionUser, id: string): Promise<ExecutionView> {
    const row = await this.#repository.findExecution(id, scopeFor(user));
    if (!row) throw notFound('Execution');
    return toExecutionView(row);
  }

  async listMessages(user: SessionUser, automationId: string): Promise<AutomationMessageView[]> {
    await this.#visible(user, automationId);
    return (await this.#repository.listMessages(automationId, MESSAGES_LIMIT)).map(toMessageView);
  }

  /**
   * The execution's callback token: derived from the installation's key and the execution id, so
   * it is never stored (only its hash) and the run job rebuilds it — also after the automation's
   * signing secret was rotated between the click and the POST.
   */
  #callbackToken(executionId: string): string {
    return hmacSha256Hex(this.deps.callbackTokenKey, `parley-automation-callback:${executionId}`);
  }

  /**
   * Run: the execution, stored 'running' with the jobs that POST the trigger and watch for silence,
   * in one transaction. Refused without a workflow URL, while inactive and while its client has
   * paused its automation (409, reason client_paused).
   */
  async run(user: SessionUser, automationId: string, startedHow: AutomationStartedHow = 'manual'): Promise<ExecutionView> {
    const automation = await this.#repository.find(automationId, scopeFor(user));
    if (!automation) throw notFound('Automation');
    if (!automation.workflowUrl) throw new AppError('BAD_REQUEST', 'Workflow URL not configured');
    if (automation.status === 'inactive') throw new AppError('CONFLICT', 'This automation is inactive. Activate it before running it.');
    if (automation.clientId !== null && (await this.#repository.isClientPaused(automation.clientId))) {
      throw new AppError('CONFLICT', AUTOMATION_PAUSED_MESSAGE, { details: { reason: 'client_paused' } });
    }
    const id = randomUUID();
    const token = this.#callbackToken(id);
    const startedAt = this.deps.clock.now();
    const row = await this.deps.db.transaction().execute(async (trx) => {
      const inserted = await this.#repository.insertExecution(
        { id, automationId, startedAt, startedHow, startedBy: user.id, callbackTokenHash: sha256Hex(token) },
        trx,
      );
      await this.deps.queue.enqueue(runAutomationJob, { executionId: id }, { db: trx });
      await this.deps.queue.enqueue(checkExecutionSilenceJob, { executionId: id, attempt: 0 }, { db: trx, delayMs: this.deps.silenceTimeoutMs });
      await this.deps.events.publish(trx, 'automation.execution.updated', { executionId: id, automationId, clientId: automation.clientId }, { kind: 'user', userId: user.id });
      return inserted;
    });
    return toExecutionView(row);
  }

  /** The run job: POSTs the signed trigger, once; records the answer. */
  async trigger(executionId: string, signal?: AbortSignal): Promise<void> {
    const { db, clock, http, secretBox, publicUrl } = this.deps;
    const row = await this.#repository.findExecutionForUpdate(executionId, db, false);
    if (!row || isFinal(row.status) || row.triggeredAt) return;
    const url = row.workflowUrl;
    if (!url) {
      await this.#settle(executionId, { status: 'error', errorMessage: 'Workflow URL not configured' });
      return;
    }
    await this.#repository.updateExecution(executionId, { triggeredAt: clock.now() }, db);
    const secret = secretBox.open(row.signingSecret);
    const now = clock.now();
    const base = `${publicUrl.replace(/\/+$/u, '')}/api/v1/automation-executions/${executionId}`;
    const trigger: AutomationTrigger = {
      execution_id: executionId,
      automation_config: row.config,
      client_id: row.clientId,
      timestamp: now.toISOString(),
      callback: { messages_url: `${base}/messages`, status_url: base, token: this.#callbackToken(executionId) },
    };
    if (row.triggerEventId && row.triggerEventType && row.triggerEvent) {
      trigger.trigger = {
        type: row.triggerEventType as PublicEventType,
        event_id: row.triggerEventId,
        data: row.triggerEvent as PublicEventEnvelope,
      };
    }
    const body = JSON.stringify(trigger);
    let answer: { status: number; body: Buffer };
    try {
      await this.deps.beforeTrigger?.();
      // Redirects are never followed (the guarded client returns a 3xx as the answer).
      answer = await http.request(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': this.deps.userAgent ?? 'Parley-Automations/1',
          'x-parley-idempotency-key': executionId,
          ...signedHeaders(secret, body, now),
        },
        body,
        signal,
        timeoutMs: TRIGGER_TIMEOUT_MS,
        maxBodyBytes: TRIGGER_ANSWER_MAX_BYTES,
        oversize: 'truncate',
      });
    } catch (error) {
      this.#logger.info({ executionId, reason: describeTriggerError(error) }, 'automation trigger failed');
      await this.#settle(executionId, { status: 'error', errorMessage: describeTriggerError(error) });
      return;
    }
    if (answer.status < 200 || answer.status >= 300) {
      await this.#settle(executionId, { status: 'error', errorMessage: `HTTP error! status: ${answer.status}` });
      return;
    }
    const externalId = externalIdOf(answer.body);
    await this.#settle(executionId, { executionId: externalId ?? undefined });
  }

  /** A change made by Parley itself: a status that would move backwards is ignored. */
  async #settle(executionId: string, change: { status?: ExecutionStatus; errorMessage?: string | null; executionId?: string }): Promise<void> {
    try {
      await this.#transition(executionId, change, { kind: 'system' });
    } catch (error) {
      if (error instanceof AppError && error.code === 'CONFLICT') return;
      throw error;
    }
  }

  /**
   * The one place an execution changes, under its row lock: statuses forward only; a final status
   * sets finished_at, duration_ms and the token's expiry once; the external id is set once.
   */
  async #transition(
    executionId: string,
    change: { status?: ExecutionStatus; errorMessage?: string | null; executionId?: string },
    performedBy: PerformedBy,
  ): Promise<ExecutionRow | undefined> {
    return this.deps.db.transaction().execute(async (trx) => {
      const row = await this.#repository.findExecutionForUpdate(executionId, trx, true);
      if (!row) return undefined;
      const now = this.deps.clock.now();
      const next = change.status ?? row.status;
      if (next !== row.status && EXECUTION_STATUS_RANK[next] <= EXECUTION_STATUS_RANK[row.status]) {
        throw new AppError('CONFLICT', `Status can only move forward (running → waiting → success | error | canceled): ${row.status} → ${next} is not allowed`, {
          fields: { status: `Cannot change from ${row.status} to ${next}` },
        });
      }
      const finishing = next !== row.status && isFinal(next);
      const wasFinal = isFinal(row.status);
      const changes: Parameters<AutomationsRepository['updateExecution']>[1] = { lastHeardAt: now };
      if (next !== row.status) changes.status = next;
      if (finishing) {
        changes.finishedAt = now;
        changes.durationMs = Math.max(0, now.getTime() - new Date(row.startedAt).getTime());
        changes.callbackTokenExpiresAt = new Date(now.getTime() + CALLBACK_GRACE_MS);
      }
      if (change.errorMessage !== undefined && (!wasFinal || finishing)) changes.errorMessage = change.errorMessage;
      const externalChanged = change.executionId !== undefined && row.executionId === null;
      if (externalChanged) changes.executionId = change.executionId;
      const updated = await this.#repository.updateExecution(executionId, changes, trx);
      if (next !== row.status || externalChanged || changes.errorMessage !== undefined) {
        await this.deps.events.publish(trx, 'automation.execution.updated', { executionId, automationId: row.automationId, clientId: row.clientId }, performedBy);
      }
      return updated;
    });
  }

  // Event triggers (issue 14 §3)

  /**
   * The events module's sink: inside the transaction that stores `events`, each ACTIVE automation
   * with a matching trigger gets an execution started by the event ('event', the event's id, type
   * and envelope) and its run and silence jobs — so the executions commit with the events or not at
   * all. One indexed query finds the candidates (the events' types, their clients and the
   * automations without a client); each event is then matched against those few: the automation's
   * client scope (a client's automation receives only that client's events), the trigger's type and
   * filters. An event an automation's own callback caused, or the end of one of its own runs
   * (automation.execution.finished), never starts that automation (loop guard), and an event never starts the same automation twice (unique automation_id,
   * trigger_event_id: a repeated `accept` adds nothing).
   */
  async accept(trx: Db, events: readonly StoredPublicEvent[]): Promise<void> {
    if (events.length === 0) return;
    const types = [...new Set(events.map((e) => e.type))];
    const clientIds = [...new Set(events.flatMap((e) => (e.clientId ? [e.clientId] : [])))];
    const candidates = await this.#repository.findTriggerCandidates(trx, types, clientIds);
    if (candidates.length === 0) return;
    const triggersOf = new Map(candidates.map((c) => [c.id, configTriggers(c.config)]));
    const startedAt = this.deps.clock.now();
    const rows: Parameters<AutomationsRepository['insertEventExecutions']>[0][number][] = [];
    const clientOf = new Map<string, string | null>();
    for (const event of events) {
      const subject = { type: event.type, clientId: event.clientId, data: event.envelope.data };
      for (const candidate of candidates) {
        if (candidate.clientId !== null && candidate.clientId !== event.clientId) continue;
        if (event.performedBy.kind === 'automation' && event.performedBy.automationId === candidate.id) continue;
        // Its own runs finishing never start it again (a trigger on automation.execution.finished would loop).
        if (event.type === 'automation.execution.finished' && finishedAutomationOf(event) === candidate.id) continue;
        if (!triggersOf.get(candidate.id)!.some((trigger) => triggerMatches(trigger, subject))) continue;
        const id = randomUUID();
        clientOf.set(candidate.id, candidate.clientId);
        rows.push({
          id,
          automationId: candidate.id,
          startedAt,
          callbackTokenHash: sha256Hex(this.#callbackToken(id)),
          triggerEventId: event.id,
          triggerEventType: event.type,
          triggerEvent: event.envelope,
        });
      }
    }
    for (let i = 0; i < rows.length; i += EVENT_EXECUTIONS_CHUNK) {
      const inserted = await this.#repository.insertEventExecutions(rows.slice(i, i + EVENT_EXECUTIONS_CHUNK), trx);
      if (inserted.length > 0) {
        await this.deps.queue.enqueueMany(runAutomationJob, inserted.map((execution) => ({ executionId: execution.id })), { db: trx });
        await this.deps.queue.enqueueMany(
          checkExecutionSilenceJob,
          inserted.map((execution) => ({ executionId: execution.id, attempt: 0 })),
          { db: trx, delayMs: this.deps.silenceTimeoutMs },
        );
        await this.deps.events.publishMany(
          trx,
          inserted.map((execution) => ({
            name: 'automation.execution.updated' as const,
            payload: { executionId: execution.id, automationId: execution.automationId, clientId: clientOf.get(execution.automationId) ?? null },
            performedBy: { kind: 'system' as const },
          })),
        );
      }
    }
  }

  // Callbacks (the workflow's side)

  /**
   * The execution whose callback token this is, while it is valid; anything else (no or a wrong
   * token, another execution's, an expired one, an unknown or malformed id) is the same 401.
   * Routes run it before the body is validated, and hand what it returns to the handler.
   */
  async authenticateCallback(executionId: string, authorization: string | undefined): Promise<CallbackContext> {
    const refuse = () => new AppError('UNAUTHENTICATED', 'Invalid or expired callback token');
    const match = /^Bearer\s+(\S{1,512})\s*$/iu.exec(authorization ?? '');
    if (!match || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/iu.test(executionId)) throw refuse();
    const row = await this.#repository.findCallbackAuth(executionId);
    const given = sha256Hex(match[1]!);
    if (!row || !safeEqual(given, row.callbackTokenHash)) throw refuse();
    if (row.callbackTokenExpiresAt && new Date(row.callbackTokenExpiresAt).getTime() <= this.deps.clock.now().getTime()) throw refuse();
    return { executionId: row.id, automationId: row.automationId, clientId: row.clientId };
  }

  /**
   * A callback authenticated by an API key with `automations:report` instead of the execution's
   * token: the key's user must see the execution (another client's is a 404, as everywhere).
   */
  async callbackContextFor(user: SessionUser, executionId: string): Promise<CallbackContext> {
    const row = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/iu.test(executionId)
      ? await this.#repository.findExecution(executionId, scopeFor(user))
      : undefined;
    if (!row) throw notFound('Execution');
    return { executionId: row.id, automationId: row.automationId, clientId: row.clientId };
  }

  /** A step message: stored, the execution heard from, the live event — one statement. */
  async postMessage(context: CallbackContext, input: StepMessageCommand): Promise<AutomationMessageView> {
    const { executionId, automationId, clientId } = context;
    const now = this.deps.clock.now();
    const id = randomUUID();
    const message = await this.#repository.insertMessageHeard(
      { id, automationId, executionId, messageType: input.message_type, stepName: input.step_name ? input.step_name : null, content: input.content, metadata: input.metadata },
      now,
      this.deps.events.publishCall([{ name: 'automation.message.created', payload: { messageId: id, automationId, clientId }, performedBy: { kind: 'system' } }]),
    );
    return toMessageView(message);
  }

  async reportStatus(context: CallbackContext, input: ExecutionUpdateCommand): Promise<ExecutionView> {
    const updated = await this.#transition(
      context.executionId,
      { status: input.status, errorMessage: input.error_message, executionId: input.execution_id ?? undefined },
      { kind: 'system' },
    );
    if (!updated) throw new AppError('UNAUTHENTICATED', 'Invalid or expired callback token');
    return toExecutionView(updated);
  }

  // Silence and reconciliation

  /** The silence job: reschedules while heard from, asks n8n when it can, else times the execution out. */
  async checkSilence(executionId: string, attempt: number): Promise<void> {
    const { db, clock, queue, silenceTimeoutMs, reconciler } = this.deps;
    const row = await this.#repository.findExecutionForUpdate(executionId, db, false);
    if (!row || isFinal(row.status)) return;
    const now = clock.now().getTime();
    const deadline = new Date(row.lastHeardAt).getTime() + silenceTimeoutMs;
    if (deadline > now) {
      await queue.enqueue(checkExecutionSilenceJob, { executionId, attempt }, { delayMs: deadline - now });
      return;
    }
    if (reconciler && row.executionId) {
      let verdict: Awaited<ReturnType<ExecutionReconciler['finalStatus']>>;
      try {
        verdict = await reconciler.finalStatus({ workflowId: row.workflowId, workflowUrl: row.workflowUrl, executionId: row.executionId });
      } catch (error) {
        this.#logger.warn({ err: error, executionId }, 'could not ask n8n about an execution; asking again later');
        verdict = 'running';
      }
      if (verdict === 'running') {
        const delayMs = Math.min(RECONCILE_BACKOFF_MS * 2 ** attempt, RECONCILE_BACKOFF_MAX_MS);
        await queue.enqueue(checkExecutionSilenceJob, { executionId, attempt: attempt + 1 }, { delayMs });
        return;
      }
      if (verdict !== null) {
        await this.#settle(executionId, { status: verdict.status, errorMessage: verdict.status === 'error' ? (verdict.error ?? 'The n8n execution failed') : (verdict.error ?? undefined) });
        return;
      }
    }
    await this.#settle(executionId, {
      status: 'error',
      errorMessage: `Timed out: the workflow reported nothing for ${formatDuration(silenceTimeoutMs)}`,
    });
  }

  // Realtime

  /** What the realtime hub sends: the entities in their API shapes, with their automation's client. */
  realtimeLoaders(): Pick<Required<RealtimeLoaders>, 'automationExecution' | 'automationMessage' | 'canSeeAutomation'> {
    return {
      automationExecution: async (id) => {
        const row = await this.#repository.findExecution(id, STAFF);
        return row ? { view: toExecutionView(row), automationId: row.automationId, clientId: row.clientId } : undefined;
      },
      automationMessage: async (id) => {
        const row = await this.#repository.findMessage(id);
        return row ? { view: toMessageView(row), automationId: row.automationId, clientId: row.clientId } : undefined;
      },
      canSeeAutomation: async (user, automationId) => (await this.#repository.find(automationId, scopeFor(user))) !== undefined,
    };
  }
}
