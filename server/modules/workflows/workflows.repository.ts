/**
 * The workflows, workflow_clients, templates and template_clients tables (migration 0014). Client
 * assignments are rows: assigning is one `insert … on conflict do nothing`, so two admins at
 * once never lose each other's assignment, and assigning a client twice is told apart exactly.
 * Reads the clients table for the assigned clients' names.
 */
import { sql } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { Db } from '../../db/database';
import type { TemplateWorkflowConfig, WorkflowKind, WorkflowStatus } from '../../db/schema';
import { json } from '../../db/sql';
import { containsPattern } from '../../lib/search';

export interface ListFilter {
  kind?: WorkflowKind | undefined;
  q?: string | undefined;
}

function workflowRowsQuery(db: Db) {
  return db.selectFrom('workflows as w').select((eb) => [
    'w.id',
    'w.kind',
    'w.name',
    'w.description',
    'w.status',
    'w.webhookUrl',
    'w.appIntegrations',
    'w.n8nWorkflowId',
    'w.createdBy',
    'w.createdAt',
    'w.updatedAt',
    jsonArrayFrom(
      eb
        .selectFrom('workflowClients as wc')
        .innerJoin('clients as cl', 'cl.id', 'wc.clientId')
        .select(['cl.id', 'cl.companyName as name', 'wc.assignedAt'])
        .whereRef('wc.workflowId', '=', 'w.id')
        .orderBy('wc.assignedAt')
        .orderBy('cl.companyName'),
    ).as('clients'),
  ]);
}

export type WorkflowRow = Awaited<ReturnType<ReturnType<typeof workflowRowsQuery>['executeTakeFirstOrThrow']>>;

function templateRowsQuery(db: Db) {
  return db.selectFrom('templates as t').select((eb) => [
    't.id',
    't.type',
    't.name',
    't.description',
    't.status',
    't.workflowConfig',
    sql<boolean>`t.n8n_workflow_json is not null`.as('hasN8nWorkflow'),
    't.createdBy',
    't.createdAt',
    't.updatedAt',
    jsonArrayFrom(
      eb
        .selectFrom('templateClients as tc')
        .innerJoin('clients as cl', 'cl.id', 'tc.clientId')
        .select(['cl.id as clientId', 'cl.companyName as clientName', 'tc.assignedAt', 'tc.automationId'])
        .whereRef('tc.templateId', '=', 't.id')
        .orderBy('tc.assignedAt')
        .orderBy('cl.companyName'),
    ).as('clients'),
  ]);
}

export type TemplateRow = Awaited<ReturnType<ReturnType<typeof templateRowsQuery>['executeTakeFirstOrThrow']>>;

export interface NewWorkflow {
  kind: WorkflowKind;
  name: string;
  description: string;
  webhookUrl: string;
  appIntegrations: string[];
  createdBy: string | null;
}

export interface WorkflowChanges {
  name?: string | undefined;
  description?: string | undefined;
  webhookUrl?: string | undefined;
  appIntegrations?: string[] | undefined;
}

export interface LinkedWorkflow {
  name: string;
  description: string;
  webhookUrl: string;
  n8nWorkflowId: string;
  status: WorkflowStatus;
  createdBy: string | null;
}

export interface NewTemplate {
  type: WorkflowKind;
  name: string;
  description: string;
  workflowConfig: TemplateWorkflowConfig;
  n8nWorkflowJson: Record<string, unknown> | null;
  createdBy: string | null;
}

export interface TemplateChanges {
  name?: string | undefined;
  description?: string | undefined;
  workflowConfig?: TemplateWorkflowConfig | undefined;
  n8nWorkflowJson?: Record<string, unknown> | null | undefined;
}

export class WorkflowsRepository {
  constructor(private readonly db: Db) {}

  // Workflows and zaps

  /** Newest first; `q` matches name or description anywhere, case-insensitively, its wildcards literally. */
  async findWorkflowRows(filter: ListFilter): Promise<WorkflowRow[]> {
    let query = workflowRowsQuery(this.db);
    if (filter.kind) query = query.where('w.kind', '=', filter.kind);
    if (filter.q) {
      const pattern = containsPattern(filter.q);
      query = query.where((eb) => eb.or([eb('w.name', 'ilike', pattern), eb('w.description', 'ilike', pattern)]));
    }
    return query.orderBy('w.createdAt', 'desc').orderBy('w.id', 'desc').execute();
  }

  async findWorkflowRow(id: string, db: Db = this.db): Promise<WorkflowRow | undefined> {
    return workflowRowsQuery(db).where('w.id', '=', id).executeTakeFirst();
  }

  async insertWorkflow(input: NewWorkflow): Promise<string> {
    const { id } = await this.db.insertInto('workflows').values(input).returning('id').executeTakeFirstOrThrow();
    return id;
  }

  /** Whether the workflow exists (and was changed). */
  async updateWorkflow(id: string, changes: WorkflowChanges): Promise<boolean> {
    const row = await this.db
      .updateTable('workflows')
      .set({
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(changes.description !== undefined ? { description: changes.description } : {}),
        ...(changes.webhookUrl !== undefined ? { webhookUrl: changes.webhookUrl } : {}),
        ...(changes.appIntegrations !== undefined ? { appIntegrations: changes.appIntegrations } : {}),
        updatedAt: new Date(),
      })
      .where('id', '=', id)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The deleted workflow's name, or undefined when there was none. */
  async deleteWorkflow(id: string): Promise<string | undefined> {
    const row = await this.db.deleteFrom('workflows').where('id', '=', id).returning('name').executeTakeFirst();
    return row?.name;
  }

  /** Whether the workflow exists (and now has this status). */
  async setWorkflowStatus(id: string, status: WorkflowStatus): Promise<boolean> {
    const row = await this.db.updateTable('workflows').set({ status, updatedAt: new Date() }).where('id', '=', id).returning('id').executeTakeFirst();
    return row !== undefined;
  }

  /** The workflow's kind, locked against deletion until `db` (a transaction) ends. */
  async lockWorkflow(id: string, db: Db): Promise<{ kind: WorkflowKind } | undefined> {
    return db.selectFrom('workflows').select('kind').where('id', '=', id).forKeyShare().executeTakeFirst();
  }

  /** Whether the assignment was made (false: the client was assigned already). */
  async insertWorkflowClient(workflowId: string, clientId: string, db: Db): Promise<boolean> {
    const row = await db
      .insertInto('workflowClients')
      .values({ workflowId, clientId })
      .onConflict((oc) => oc.columns(['workflowId', 'clientId']).doNothing())
      .returning('clientId')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Whether there was such an assignment. */
  async deleteWorkflowClient(workflowId: string, clientId: string): Promise<boolean> {
    const row = await this.db
      .deleteFrom('workflowClients')
      .where('workflowId', '=', workflowId)
      .where('clientId', '=', clientId)
      .returning('clientId')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Creates the linked n8n workflow's record, or refreshes the one with that n8n id; its id and whether it is new. */
  async upsertLinkedWorkflow(input: LinkedWorkflow): Promise<{ id: string; created: boolean }> {
    const row = await this.db
      .insertInto('workflows')
      .values({ kind: 'n8n', ...input })
      .onConflict((oc) =>
        oc.column('n8nWorkflowId').doUpdateSet((eb) => ({
          name: eb.ref('excluded.name'),
          description: eb.ref('excluded.description'),
          webhookUrl: eb.ref('excluded.webhookUrl'),
          status: eb.ref('excluded.status'),
          updatedAt: new Date(),
        })),
      )
      .returning(['id', sql<boolean>`xmax = 0`.as('created')])
      .executeTakeFirstOrThrow();
    return { id: row.id, created: row.created };
  }

  // Templates

  async findTemplateRows(filter: { type?: WorkflowKind | undefined; q?: string | undefined }): Promise<TemplateRow[]> {
    let query = templateRowsQuery(this.db);
    if (filter.type) query = query.where('t.type', '=', filter.type);
    if (filter.q) {
      const pattern = containsPattern(filter.q);
      query = query.where((eb) => eb.or([eb('t.name', 'ilike', pattern), eb('t.description', 'ilike', pattern)]));
    }
    return query.orderBy('t.createdAt', 'desc').orderBy('t.id', 'desc').execute();
  }

  async findTemplateRow(id: string): Promise<TemplateRow | undefined> {
    return templateRowsQuery(this.db).where('t.id', '=', id).executeTakeFirst();
  }

  /**
   * The template's n8n workflow as stored. Read as text: the CamelCasePlugin would rename the
   * snake_case keys inside a jsonb value, and this JSON must stay exactly as n8n wrote it.
   */
  async findN8nWorkflowJson(id: string): Promise<{ json: Record<string, unknown> | null } | undefined> {
    const row = await this.db.selectFrom('templates').select(sql<string | null>`n8n_workflow_json::text`.as('text')).where('id', '=', id).executeTakeFirst();
    return row ? { json: row.text === null ? null : (JSON.parse(row.text) as Record<string, unknown>) } : undefined;
  }

  /** The template's type and current JSON-free fields (for an update that merges the config). */
  async findTemplateBasics(id: string): Promise<{ type: WorkflowKind; workflowConfig: TemplateWorkflowConfig } | undefined> {
    return this.db.selectFrom('templates').select(['type', 'workflowConfig']).where('id', '=', id).executeTakeFirst();
  }

  async insertTemplate(input: NewTemplate): Promise<string> {
    const { id } = await this.db
      .insertInto('templates')
      .values({
        ...input,
        workflowConfig: json(input.workflowConfig),
        n8nWorkflowJson: input.n8nWorkflowJson === null ? null : json(input.n8nWorkflowJson),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  }

  /** Whether the template exists (and was changed). */
  async updateTemplate(id: string, changes: TemplateChanges): Promise<boolean> {
    const { n8nWorkflowJson } = changes;
    const row = await this.db
      .updateTable('templates')
      .set({
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(changes.description !== undefined ? { description: changes.description } : {}),
        ...(changes.workflowConfig !== undefined ? { workflowConfig: json(changes.workflowConfig) } : {}),
        ...(n8nWorkflowJson !== undefined ? { n8nWorkflowJson: n8nWorkflowJson === null ? null : json(n8nWorkflowJson) } : {}),
        updatedAt: new Date(),
      })
      .where('id', '=', id)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  async deleteTemplate(id: string): Promise<boolean> {
    const row = await this.db.deleteFrom('templates').where('id', '=', id).returning('id').executeTakeFirst();
    return row !== undefined;
  }

  /** Flips the status in one statement (active -> paused, anything else -> active); whether the template exists. */
  async toggleTemplateStatus(id: string): Promise<boolean> {
    const row = await this.db
      .updateTable('templates')
      .set({ status: sql<WorkflowStatus>`case when status = 'active' then 'paused' else 'active' end`, updatedAt: new Date() })
      .where('id', '=', id)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** A copy in draft with the name plus `suffix` and no clients; its id, or undefined when there is no such template. */
  async cloneTemplate(id: string, suffix: string, createdBy: string): Promise<string | undefined> {
    const row = await this.db
      .insertInto('templates')
      .columns(['type', 'name', 'description', 'status', 'workflowConfig', 'n8nWorkflowJson', 'createdBy'])
      .expression((eb) =>
        eb
          .selectFrom('templates')
          .select([
            'type',
            sql<string>`name || ${suffix}`.as('name'),
            'description',
            sql<WorkflowStatus>`'draft'`.as('status'),
            'workflowConfig',
            'n8nWorkflowJson',
            sql<string>`${createdBy}::uuid`.as('createdBy'),
          ])
          .where('id', '=', id),
      )
      .returning('id')
      .executeTakeFirst();
    return row?.id;
  }

  /** The template's name, description and config, locked against deletion until `db` (a transaction) ends. */
  async lockTemplate(id: string, db: Db): Promise<{ name: string; description: string; workflowConfig: TemplateWorkflowConfig } | undefined> {
    return db.selectFrom('templates').select(['name', 'description', 'workflowConfig']).where('id', '=', id).forKeyShare().executeTakeFirst();
  }

  /** Whether the assignment was made (false: the client was assigned already). */
  async insertTemplateClient(templateId: string, clientId: string, db: Db): Promise<boolean> {
    const row = await db
      .insertInto('templateClients')
      .values({ templateId, clientId })
      .onConflict((oc) => oc.columns(['templateId', 'clientId']).doNothing())
      .returning('clientId')
      .executeTakeFirst();
    return row !== undefined;
  }

  async setTemplateClientAutomation(templateId: string, clientId: string, automationId: string, db: Db): Promise<void> {
    await db.updateTable('templateClients').set({ automationId }).where('templateId', '=', templateId).where('clientId', '=', clientId).execute();
  }

  async deleteTemplateClient(templateId: string, clientId: string): Promise<boolean> {
    const row = await this.db
      .deleteFrom('templateClients')
      .where('templateId', '=', templateId)
      .where('clientId', '=', clientId)
      .returning('clientId')
      .executeTakeFirst();
    return row !== undefined;
  }

  // Clients (owned by the clients module; read here for names)

  /** The client's company name, locked against deletion until `db` (a transaction) ends. */
  async lockClientName(clientId: string, db: Db): Promise<string | undefined> {
    const row = await db.selectFrom('clients').select('companyName').where('id', '=', clientId).forKeyShare().executeTakeFirst();
    return row?.companyName;
  }
}
