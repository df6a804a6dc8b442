/**
 * n8n workflows, Zapier zaps and templates for administrators (spec part 2 "Workflow, zap and
 * template admin"; the routes are admin-only). Search, status toggles and client assignments are
 * server operations on rows, never a read-modify-write of a list.
 *
 * - Toggling a workflow linked to n8n switches it in n8n first (`N8nWorkflowSwitch`); if n8n
 *   refuses, nothing is stored and the refusal is the answer.
 * - Assigning a template to a client creates that client's automation from the template
 *   (`AutomationCreator`) in the same transaction as the assignment.
 * - Importing from n8n (`N8nWorkflowSource`) creates or refreshes the record linked to a workflow
 *   of the connected instance, its webhook URL from the workflow's Webhook node.
 * - Listing asks n8n for the linked workflows' real active state (within `n8nSyncTimeoutMs`) and
 *   stores the ones that changed there; when n8n cannot be asked, the stored states are listed
 *   and `n8nSync` says why.
 * Any port may be absent (a server built without those modules): what needs it answers 503.
 */
import type { z } from 'zod';
import {
  type createTemplateInput,
  type createWorkflowInput,
  type findTemplatesQuery,
  type findWorkflowsQuery,
  type ImportN8nWorkflowsInput,
  type ImportN8nWorkflowsResponse,
  type N8nSyncState,
  n8nWorkflowJson,
  type N8nWorkflowJson,
  type TemplateView,
  type updateTemplateInput,
  type updateWorkflowInput,
  WORKFLOW_TEXTS,
  type WorkflowView,
} from '../../../common/api/workflows';
import type { Db } from '../../db/database';
import type { WorkflowKind, WorkflowStatus } from '../../db/schema';
import { AppError, notFound } from '../../lib/errors';
import type { AutomationCreator, N8nWorkflowInfo, N8nWorkflowSource, N8nWorkflowSwitch } from './workflow-ports';
import { type TemplateRow, type WorkflowRow, WorkflowsRepository } from './workflows.repository';

export type CreateWorkflowCommand = z.output<typeof createWorkflowInput>;
export type UpdateWorkflowCommand = z.output<typeof updateWorkflowInput>;
export type CreateTemplateCommand = z.output<typeof createTemplateInput>;
export type UpdateTemplateCommand = z.output<typeof updateTemplateInput>;
export type FindWorkflowsFilter = z.output<typeof findWorkflowsQuery>;
export type FindTemplatesFilter = z.output<typeof findTemplatesQuery>;

/** A workflow of the connected n8n instance, as the n8n module imports it. */
export interface ImportLinkedCommand {
  name: string;
  description?: string | undefined;
  webhookUrl: string;
  n8nWorkflowId: string;
  /** n8n's own active state: active, else paused. */
  active: boolean;
  createdBy: string | null;
}

export interface WorkflowsServiceDeps {
  db: Db;
  /** The guarded HTTP client's input-time check: why a URL is refused, or null. */
  checkOutboundUrl(url: string): string | null;
  automations?: AutomationCreator | undefined;
  n8nSwitch?: N8nWorkflowSwitch | undefined;
  n8nSource?: N8nWorkflowSource | undefined;
  /** How long the list waits for n8n's active states (default 3 s); then the stored ones are shown. */
  n8nSyncTimeoutMs?: number | undefined;
}

const N8N_SYNC_TIMEOUT_MS = 3_000;
const NOT_CONFIGURED = 'The n8n connection is not configured on this server';

const noWebhookReason = 'It has no enabled Webhook node that takes POST: add one in n8n, then import it again';

/** The first `limit` names, quoted, and how many more. */
function names(list: string[], limit = 3): string {
  const shown = list.slice(0, limit).map((n) => `"${n}"`).join(', ');
  return list.length > limit ? `${shown} and ${list.length - limit} more` : shown;
}

/** A stored n8n workflow JSON is at most this long (as JSON text). */
const MAX_N8N_JSON_CHARS = 512 * 1024;
const COPY_SUFFIX = ' (Copy)';
const MAX_STORED_NAME = 300;

const iso = (d: Date | string): string => new Date(d).toISOString();

/** The toggle of spec part 2 §4: active becomes paused, anything else active. */
export function nextStatus(status: WorkflowStatus): WorkflowStatus {
  return status === 'active' ? 'paused' : 'active';
}

function workflowView(row: WorkflowRow): WorkflowView {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    description: row.description,
    status: row.status,
    webhookUrl: row.webhookUrl,
    appIntegrations: row.appIntegrations,
    n8nWorkflowId: row.n8nWorkflowId,
    clientCount: row.clients.length,
    assignedClients: row.clients.map((c) => ({ id: c.id, name: c.name, assignedAt: iso(c.assignedAt) })),
    createdBy: row.createdBy,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

function templateView(row: TemplateRow): TemplateView {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    type: row.type,
    status: row.status,
    workflowConfig: { webhookUrl: row.workflowConfig.webhookUrl, triggers: row.workflowConfig.triggers },
    hasN8nWorkflow: row.hasN8nWorkflow,
    clientCount: row.clients.length,
    clientAssignments: row.clients.map((c) => ({
      clientId: c.clientId,
      clientName: c.clientName,
      assignedAt: iso(c.assignedAt),
      automationId: c.automationId,
    })),
    createdBy: row.createdBy,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

const kindWord = (kind: WorkflowKind): string => (kind === 'zapier' ? 'Zap' : 'Workflow');

export class WorkflowsService {
  readonly #repo: WorkflowsRepository;

  constructor(private readonly deps: WorkflowsServiceDeps) {
    this.#repo = new WorkflowsRepository(deps.db);
  }

  #checkWebhookUrl(url: string, field: string): void {
    const refused = this.deps.checkOutboundUrl(url);
    if (refused) {
      const message = `${refused}. Enter a public address, or ask the operator to allow this host in OUTBOUND_ALLOWED_HOSTS.`;
      throw new AppError('VALIDATION_ERROR', refused, { fields: { [field]: message } });
    }
  }

  // Workflows and zaps

  async findWorkflows(filter: FindWorkflowsFilter): Promise<WorkflowView[]> {
    return (await this.#repo.findWorkflowRows(filter)).map(workflowView);
  }

  /**
   * The list, its workflows linked to n8n first brought to n8n's real active state (an active
   * workflow in n8n is 'active' here; an inactive one 'paused', or still 'draft' if it was). When
   * n8n cannot be asked in time, the stored states and the reason (`n8nSync.ok: false`).
   */
  async findWorkflowsSynced(filter: FindWorkflowsFilter): Promise<{ workflows: WorkflowView[]; n8nSync: N8nSyncState | null }> {
    let rows = await this.#repo.findWorkflowRows(filter);
    const linked = rows.filter((row) => row.n8nWorkflowId !== null);
    if (linked.length === 0) return { workflows: rows.map(workflowView), n8nSync: null };
    const { sync, changed } = await this.#syncWithN8n(linked);
    if (changed) rows = await this.#repo.findWorkflowRows(filter);
    return { workflows: rows.map(workflowView), n8nSync: sync };
  }

  async #syncWithN8n(linked: WorkflowRow[]): Promise<{ sync: N8nSyncState; changed: boolean }> {
    const checkedAt = new Date().toISOString();
    const stored = (reason: string) => ({ sync: { ok: false, message: `Showing the stored states: n8n could not be asked (${reason})`, checkedAt }, changed: false });
    const source = this.deps.n8nSource;
    if (!source) return stored(NOT_CONFIGURED);
    const timeoutMs = this.deps.n8nSyncTimeoutMs ?? N8N_SYNC_TIMEOUT_MS;
    let timer: NodeJS.Timeout | undefined;
    let workflows: N8nWorkflowInfo[];
    try {
      workflows = await Promise.race([
        source.listWorkflows(),
        new Promise<never>((_resolve, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs / 1000} seconds`)), timeoutMs);
          timer.unref();
        }),
      ]);
    } catch (error) {
      return stored(error instanceof Error ? error.message : String(error));
    } finally {
      clearTimeout(timer);
    }
    const byId = new Map(workflows.map((w) => [w.id, w]));
    const missing: string[] = [];
    let changedCount = 0;
    for (const row of linked) {
      const found = byId.get(row.n8nWorkflowId!);
      if (!found) {
        missing.push(row.name);
        continue;
      }
      const next: WorkflowStatus = found.active ? 'active' : row.status === 'draft' ? 'draft' : 'paused';
      if (next !== row.status && (await this.#repo.setWorkflowStatus(row.id, next))) changedCount++;
    }
    const parts = [`Active states read from n8n${changedCount ? ` (${changedCount} changed there since the last look)` : ''}`];
    if (missing.length) parts.push(`not found in n8n: ${names(missing)}`);
    return { sync: { ok: true, message: parts.join('; '), checkedAt }, changed: changedCount > 0 };
  }

  /**
   * Import from n8n: the workflow with that n8n id (400 when it has no Webhook node taking POST),
   * or every workflow of the instance that has one (the others listed in `skipped`). Each becomes
   * or refreshes the record linked to it (`importLinked`).
   */
  async importFromN8n(input: ImportN8nWorkflowsInput, createdBy: string): Promise<ImportN8nWorkflowsResponse> {
    const source = this.deps.n8nSource;
    if (!source) throw new AppError('UNAVAILABLE', `${NOT_CONFIGURED}, so nothing can be imported from n8n`);
    const importOne = (w: N8nWorkflowInfo & { webhookUrl: string }) =>
      this.importLinked({ name: w.name, webhookUrl: w.webhookUrl, n8nWorkflowId: w.id, active: w.active, createdBy });
    if (input.n8nWorkflowId !== undefined) {
      const workflow = await source.getWorkflow(input.n8nWorkflowId);
      if (workflow.webhookUrl === null) {
        const message = `The n8n workflow "${workflow.name}" cannot be imported. ${noWebhookReason}.`;
        throw new AppError('VALIDATION_ERROR', message, { fields: { n8nWorkflowId: message } });
      }
      return { imported: [await importOne({ ...workflow, webhookUrl: workflow.webhookUrl })], skipped: [] };
    }
    const result: ImportN8nWorkflowsResponse = { imported: [], skipped: [] };
    for (const workflow of await source.listWorkflows()) {
      if (workflow.webhookUrl === null) result.skipped.push({ n8nWorkflowId: workflow.id, name: workflow.name, reason: noWebhookReason });
      else result.imported.push(await importOne({ ...workflow, webhookUrl: workflow.webhookUrl }));
    }
    return result;
  }

  async getWorkflow(id: string): Promise<WorkflowView> {
    const row = await this.#repo.findWorkflowRow(id);
    if (!row) throw notFound('Workflow');
    return workflowView(row);
  }

  async createWorkflow(input: CreateWorkflowCommand, createdBy: string): Promise<WorkflowView> {
    if (input.kind !== 'zapier' && input.appIntegrations?.length) {
      throw new AppError('VALIDATION_ERROR', 'Only zaps have app integrations', { fields: { appIntegrations: 'Only zaps have app integrations' } });
    }
    this.#checkWebhookUrl(input.webhookUrl, 'webhookUrl');
    const id = await this.#repo.insertWorkflow({
      kind: input.kind,
      name: input.name,
      description: input.description,
      webhookUrl: input.webhookUrl,
      appIntegrations: input.appIntegrations ?? [],
      createdBy,
    });
    return this.getWorkflow(id);
  }

  async updateWorkflow(id: string, input: UpdateWorkflowCommand): Promise<WorkflowView> {
    if (input.webhookUrl !== undefined) this.#checkWebhookUrl(input.webhookUrl, 'webhookUrl');
    if (input.appIntegrations?.length) {
      const current = await this.getWorkflow(id);
      if (current.kind !== 'zapier') {
        throw new AppError('VALIDATION_ERROR', 'Only zaps have app integrations', { fields: { appIntegrations: 'Only zaps have app integrations' } });
      }
    }
    if (!(await this.#repo.updateWorkflow(id, input))) throw notFound('Workflow');
    return this.getWorkflow(id);
  }

  /** Deletes Parley's record only (a linked workflow stays on the n8n instance). */
  async deleteWorkflow(id: string): Promise<void> {
    if ((await this.#repo.deleteWorkflow(id)) === undefined) throw notFound('Workflow');
  }

  /**
   * Active becomes paused, anything else active; the new row. A workflow linked to n8n is switched
   * there first and the status stored only once n8n has accepted. No transaction is held while n8n
   * answers (on PGlite that would stop every other query): two toggles at once both read the same
   * status and switch n8n the same way, so n8n and the row still agree.
   */
  async toggleWorkflowStatus(id: string): Promise<WorkflowView> {
    const current = await this.getWorkflow(id);
    const next = nextStatus(current.status);
    if (current.n8nWorkflowId !== null) {
      const n8n = this.deps.n8nSwitch;
      if (!n8n) throw new AppError('UNAVAILABLE', 'The n8n connection is not configured on this server, so a linked workflow cannot be switched');
      try {
        await n8n.setActive(current.n8nWorkflowId, next === 'active');
      } catch (error) {
        if (error instanceof AppError) throw error;
        const reason = error instanceof Error ? error.message : String(error);
        throw new AppError('BAD_GATEWAY', `n8n refused to ${next === 'active' ? 'activate' : 'deactivate'} the workflow: ${reason}`, { cause: error });
      }
    }
    if (!(await this.#repo.setWorkflowStatus(id, next))) throw notFound('Workflow');
    return this.getWorkflow(id);
  }

  /** Appends the client (one row; 409 when it is assigned already). */
  async assignWorkflowClient(id: string, clientId: string): Promise<WorkflowView> {
    await this.deps.db.transaction().execute(async (trx) => {
      const workflow = await this.#repo.lockWorkflow(id, trx);
      if (!workflow) throw notFound('Workflow');
      const clientName = await this.#repo.lockClientName(clientId, trx);
      if (clientName === undefined) throw new AppError('NOT_FOUND', 'Client not found', { fields: { clientId: 'Client not found' } });
      if (!(await this.#repo.insertWorkflowClient(id, clientId, trx))) {
        throw new AppError('CONFLICT', WORKFLOW_TEXTS.workflowAlreadyAssigned(clientName, workflow.kind), {
          details: { title: WORKFLOW_TEXTS.alreadyAssignedTitle },
        });
      }
    });
    return this.getWorkflow(id);
  }

  async removeWorkflowClient(id: string, clientId: string): Promise<WorkflowView> {
    if (!(await this.#repo.deleteWorkflowClient(id, clientId))) {
      const workflow = await this.getWorkflow(id);
      throw new AppError('NOT_FOUND', `The client is not assigned to this ${kindWord(workflow.kind).toLowerCase()}`);
    }
    return this.getWorkflow(id);
  }

  /**
   * Creates or refreshes the record of a workflow on the connected n8n instance (one per n8n
   * workflow id): name, description, webhook URL and n8n's active state; assignments are kept.
   * The URL comes from the n8n instance the administrator connected, so it is not checked here.
   */
  async importLinked(input: ImportLinkedCommand): Promise<{ workflow: WorkflowView; created: boolean }> {
    if (!/^https?:\/\//iu.test(input.webhookUrl) || input.webhookUrl.length > 2048) {
      throw new AppError('VALIDATION_ERROR', `The n8n workflow's webhook URL is not a usable http(s) URL: ${input.webhookUrl.slice(0, 200)}`);
    }
    if (input.n8nWorkflowId.length < 1 || input.n8nWorkflowId.length > 100) throw new AppError('VALIDATION_ERROR', 'The n8n workflow id must be 1 to 100 characters');
    const { id, created } = await this.#repo.upsertLinkedWorkflow({
      name: input.name.trim().slice(0, MAX_STORED_NAME) || input.n8nWorkflowId,
      description: (input.description ?? '').slice(0, 2000),
      webhookUrl: input.webhookUrl,
      n8nWorkflowId: input.n8nWorkflowId,
      status: input.active ? 'active' : 'paused',
      createdBy: input.createdBy,
    });
    return { workflow: await this.getWorkflow(id), created };
  }

  // Templates

  async findTemplates(filter: FindTemplatesFilter): Promise<TemplateView[]> {
    return (await this.#repo.findTemplateRows(filter)).map(templateView);
  }

  async getTemplate(id: string): Promise<TemplateView> {
    const row = await this.#repo.findTemplateRow(id);
    if (!row) throw notFound('Template');
    return templateView(row);
  }

  async getTemplateN8nWorkflow(id: string): Promise<N8nWorkflowJson> {
    const found = await this.#repo.findN8nWorkflowJson(id);
    if (!found) throw notFound('Template');
    if (!found.json) throw new AppError('NOT_FOUND', 'This template has no n8n workflow');
    return n8nWorkflowJson.parse(found.json);
  }

  #checkN8nJson(type: WorkflowKind, value: Record<string, unknown> | null | undefined): void {
    if (value === undefined || value === null) return;
    if (type !== 'n8n') {
      throw new AppError('VALIDATION_ERROR', 'Only n8n templates carry an n8n workflow', { fields: { n8nWorkflowJson: 'Only n8n templates carry an n8n workflow' } });
    }
    if (JSON.stringify(value).length > MAX_N8N_JSON_CHARS) {
      throw new AppError('VALIDATION_ERROR', 'The n8n workflow is too large', { fields: { n8nWorkflowJson: 'The n8n workflow is too large (512 KB at most)' } });
    }
  }

  async createTemplate(input: CreateTemplateCommand, createdBy: string): Promise<TemplateView> {
    this.#checkN8nJson(input.type, input.n8nWorkflowJson);
    this.#checkWebhookUrl(input.workflowConfig.webhookUrl, 'workflowConfig.webhookUrl');
    const id = await this.#repo.insertTemplate({
      type: input.type,
      name: input.name,
      description: input.description,
      workflowConfig: { webhookUrl: input.workflowConfig.webhookUrl, triggers: input.workflowConfig.triggers },
      n8nWorkflowJson: input.n8nWorkflowJson ?? null,
      createdBy,
    });
    return this.getTemplate(id);
  }

  async updateTemplate(id: string, input: UpdateTemplateCommand): Promise<TemplateView> {
    const current = await this.#repo.findTemplateBasics(id);
    if (!current) throw notFound('Template');
    this.#checkN8nJson(current.type, input.n8nWorkflowJson);
    if (input.workflowConfig?.webhookUrl !== undefined) this.#checkWebhookUrl(input.workflowConfig.webhookUrl, 'workflowConfig.webhookUrl');
    // The config is replaced as a whole from the stored one and the fields given (one admin's
    // edit dialog; assignments are rows, untouched by this).
    const workflowConfig = input.workflowConfig
      ? {
          webhookUrl: input.workflowConfig.webhookUrl ?? current.workflowConfig.webhookUrl,
          triggers: input.workflowConfig.triggers ?? current.workflowConfig.triggers,
        }
      : undefined;
    const changed = await this.#repo.updateTemplate(id, {
      name: input.name,
      description: input.description,
      workflowConfig,
      n8nWorkflowJson: input.n8nWorkflowJson,
    });
    if (!changed) throw notFound('Template');
    return this.getTemplate(id);
  }

  async deleteTemplate(id: string): Promise<void> {
    if (!(await this.#repo.deleteTemplate(id))) throw notFound('Template');
  }

  async toggleTemplateStatus(id: string): Promise<TemplateView> {
    if (!(await this.#repo.toggleTemplateStatus(id))) throw notFound('Template');
    return this.getTemplate(id);
  }

  /** A draft copy named "{name} (Copy)" with no clients (spec part 2 §5). */
  async cloneTemplate(id: string, createdBy: string): Promise<TemplateView> {
    const source = await this.getTemplate(id);
    if (source.name.length + COPY_SUFFIX.length > MAX_STORED_NAME) {
      throw new AppError('VALIDATION_ERROR', 'The name is too long to add " (Copy)"; shorten it first', { fields: { name: 'Name is too long' } });
    }
    const copy = await this.#repo.cloneTemplate(id, COPY_SUFFIX, createdBy);
    if (!copy) throw notFound('Template');
    return this.getTemplate(copy);
  }

  /**
   * Assigns the template to a client and creates the client's automation from it (name,
   * description, workflow URL, triggers), both in one transaction: the assignment exists only
   * with its automation. Assigned already: 409 'Client Already Assigned' / '{client} is already
   * assigned to this template', and no second automation.
   */
  async assignTemplateClient(id: string, clientId: string, assignedBy: string): Promise<TemplateView> {
    await this.deps.db.transaction().execute((trx) => this.applyTemplate(trx, { templateId: id, clientId, assignedBy }));
    return this.getTemplate(id);
  }

  /**
   * `assignTemplateClient` inside the caller's transaction `trx` (an approved onboarding request
   * applies its offer's template with the rest of the approval): the assignment and the client's
   * automation; the template's name and the automation's id.
   */
  async applyTemplate(trx: Db, input: { templateId: string; clientId: string; assignedBy: string }): Promise<{ templateName: string; automationId: string }> {
    const automations = this.deps.automations;
    if (!automations) throw new AppError('UNAVAILABLE', 'Automations are not configured on this server, so a template cannot be assigned');
    const { templateId: id, clientId, assignedBy } = input;
    const template = await this.#repo.lockTemplate(id, trx);
    if (!template) throw notFound('Template');
    const clientName = await this.#repo.lockClientName(clientId, trx);
    if (clientName === undefined) throw new AppError('NOT_FOUND', 'Client not found', { fields: { clientId: 'Client not found' } });
    if (!(await this.#repo.insertTemplateClient(id, clientId, trx))) {
      throw new AppError('CONFLICT', WORKFLOW_TEXTS.templateAlreadyAssigned(clientName), { details: { title: WORKFLOW_TEXTS.alreadyAssignedTitle } });
    }
    const automation = await automations.createFromTemplate(
      {
        clientId,
        templateId: id,
        name: template.name,
        description: template.description,
        workflowUrl: template.workflowConfig.webhookUrl,
        triggers: template.workflowConfig.triggers,
        createdBy: assignedBy,
      },
      trx,
    );
    await this.#repo.setTemplateClientAutomation(id, clientId, automation.id, trx);
    return { templateName: template.name, automationId: automation.id };
  }

  /** Removes the assignment; the automation it created stays the client's (delete it on the automations screen). */
  async removeTemplateClient(id: string, clientId: string): Promise<TemplateView> {
    if (!(await this.#repo.deleteTemplateClient(id, clientId))) {
      await this.getTemplate(id);
      throw new AppError('NOT_FOUND', 'The client is not assigned to this template');
    }
    return this.getTemplate(id);
  }
}
