/**
 * Marks that carry counts (issue 16 §7, docs/insights.md "Kept current"), owned by the insights
 * module: a plain message — a customer's, or the AI's after its first answer — in a conversation
 * whose row already holds everything such a message cannot change only adds to the row's message
 * counts, so the `insights.recompute` job adds them instead of reading the conversation's facts.
 *
 * - `recompute`: the conversation needs a recompute from its facts (a new conversation, a person's
 *   reply, a satisfaction answer, a mark whose counts a recompute may have seen already). Marks
 *   from before this migration carry no counts, so they ask for it.
 * - `customer_messages`, `ai_replies`: the messages marked since the mark was last cleared.
 */
import type { Kysely } from 'kysely';
import { execAll } from './helpers';

export async function up(db: Kysely<unknown>): Promise<void> {
  await execAll(db, [
    `alter table service_level_marks
      add column recompute boolean not null default true,
      add column customer_messages integer not null default 0 check (customer_messages >= 0),
      add column ai_replies integer not null default 0 check (ai_replies >= 0)`,
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await execAll(db, ['alter table service_level_marks drop column recompute, drop column customer_messages, drop column ai_replies']);
}
