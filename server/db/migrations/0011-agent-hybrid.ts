/**
 * The hybrid engine (issue 12 §3): `agents.llm_mode` says how an agent with an LLM engine uses it.
 *
 * - `embedded-first` (the default for new configurations): the embedded engine answers what it is
 *   confident about at no cost; only the other questions go to the LLM.
 * - `llm`: every question goes to the LLM, as before this migration.
 *
 * Agents already configured with an LLM keep answering every question through it (`llm`), so an
 * upgrade changes no agent's behaviour; the others get the new default for when they switch to one.
 */
import type { Kysely } from 'kysely';
import { execAll } from './helpers';

export async function up(db: Kysely<unknown>): Promise<void> {
  await execAll(db, [
    `alter table agents add column llm_mode text not null default 'embedded-first' check (llm_mode in ('embedded-first', 'llm'))`,
    `update agents set llm_mode = 'llm' where engine <> 'embedded'`,
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await execAll(db, ['alter table agents drop column llm_mode']);
}
