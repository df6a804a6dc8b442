/**
 * Workflows, zaps and templates (issue 13 §1–2), owned by the workflows module.
 *
 * - `workflows`: n8n workflows and Zapier zaps (`kind`), status draft → active ⇄ paused. An n8n
 *   workflow may be linked to a workflow of the connected n8n instance (`n8n_workflow_id`, unique).
 *   Only zaps list app integrations.
 * - `workflow_clients`, `template_clients`: client assignments as rows, one per client (unique), so
 *   two admins assigning at once never overwrite each other's assignment.
 * - `templates`: what a client's automation is made from (`workflow_config`: {webhookUrl,
 *   triggers}); an n8n template may carry an importable n8n workflow JSON. `template_clients`
 *   keeps the automation the assignment created (`automation_id`; the automations module owns
 *   that table, so no foreign key from here: deleting an automation leaves the assignment).
 */
import type { Kysely } from 'kysely';
import { execAll } from './helpers';

export async function up(db: Kysely<unknown>): Promise<void> {
  await execAll(db, [
    `create table workflows (
      id uuid primary key default gen_random_uuid(),
      kind text not null check (kind in ('n8n', 'zapier')),
      name text not null check (char_length(name) between 1 and 300),
      description text not null default '' check (char_length(description) <= 2000),
      status text not null default 'draft' check (status in ('draft', 'active', 'paused')),
      webhook_url text not null check (char_length(webhook_url) between 1 and 2048),
      app_integrations text[] not null default '{}' check (cardinality(app_integrations) <= 50),
      n8n_workflow_id text unique check (char_length(n8n_workflow_id) between 1 and 100),
      created_by uuid references users (id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      check (kind = 'zapier' or cardinality(app_integrations) = 0),
      check (kind = 'n8n' or n8n_workflow_id is null)
    )`,
    `create index workflows_kind_created_idx on workflows (kind, created_at desc)`,
    `create table workflow_clients (
      workflow_id uuid not null references workflows (id) on delete cascade,
      client_id uuid not null references clients (id) on delete cascade,
      assigned_at timestamptz not null default now(),
      primary key (workflow_id, client_id)
    )`,
    `create index workflow_clients_client_idx on workflow_clients (client_id)`,
    `create table templates (
      id uuid primary key default gen_random_uuid(),
      type text not null check (type in ('n8n', 'zapier')),
      name text not null check (char_length(name) between 1 and 300),
      description text not null default '' check (char_length(description) <= 2000),
      status text not null default 'draft' check (status in ('draft', 'active', 'paused')),
      -- {"webhookUrl": text, "triggers": [text]}
      workflow_config jsonb not null check (jsonb_typeof(workflow_config) = 'object'
        and jsonb_typeof(workflow_config -> 'webhookUrl') = 'string'
        and jsonb_typeof(workflow_config -> 'triggers') = 'array'),
      n8n_workflow_json jsonb check (jsonb_typeof(n8n_workflow_json) = 'object'),
      created_by uuid references users (id) on delete set null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      check (type = 'n8n' or n8n_workflow_json is null)
    )`,
    `create index templates_created_idx on templates (created_at desc)`,
    `create table template_clients (
      template_id uuid not null references templates (id) on delete cascade,
      client_id uuid not null references clients (id) on delete cascade,
      assigned_at timestamptz not null default now(),
      automation_id uuid,
      primary key (template_id, client_id)
    )`,
    `create index template_clients_client_idx on template_clients (client_id)`,
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await execAll(db, ['drop table template_clients', 'drop table templates', 'drop table workflow_clients', 'drop table workflows']);
}
