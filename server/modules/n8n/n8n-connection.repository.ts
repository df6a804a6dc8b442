/** `n8n_connections` (owned by the n8n module): the one n8n connection of this installation. */
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database';
import type { N8nConnectionsTable } from '../../db/schema';

export type N8nConnectionRow = Selectable<N8nConnectionsTable> & { updatedByName: string | null };

export interface N8nTestOutcome {
  ok: boolean;
  message: string;
  workflowCount: number | null;
  testedAt: Date;
}

export class N8nConnectionRepository {
  constructor(private readonly db: Db) {}

  async find(db: Db = this.db): Promise<N8nConnectionRow | undefined> {
    return db
      .selectFrom('n8nConnections as c')
      .leftJoin('users as u', 'u.id', 'c.updatedBy')
      .selectAll('c')
      .select('u.fullName as updatedByName')
      .executeTakeFirst();
  }

  /** Creates or replaces the connection; a new base URL or key forgets the last test. */
  async save(input: { baseUrl: string; apiKeySealed: string; updatedBy: string; now: Date }, db: Db = this.db): Promise<void> {
    const values = {
      baseUrl: input.baseUrl,
      apiKeySealed: input.apiKeySealed,
      updatedBy: input.updatedBy,
      updatedAt: input.now,
      lastTestOk: null,
      lastTestMessage: null,
      lastTestWorkflowCount: null,
      lastTestedAt: null,
    };
    await db
      .insertInto('n8nConnections')
      .values({ ...values, createdAt: input.now })
      .onConflict((oc) => oc.column('singleton').doUpdateSet(values))
      .execute();
  }

  /** Records a test's outcome, unless the connection was replaced since the test read it. */
  async recordTest(baseUrl: string, apiKeySealed: string, outcome: N8nTestOutcome, db: Db = this.db): Promise<void> {
    await db
      .updateTable('n8nConnections')
      .set({
        lastTestOk: outcome.ok,
        lastTestMessage: outcome.message.slice(0, 2000),
        lastTestWorkflowCount: outcome.workflowCount,
        lastTestedAt: outcome.testedAt,
      })
      .where('baseUrl', '=', baseUrl)
      .where('apiKeySealed', '=', apiKeySealed)
      .execute();
  }

  async delete(db: Db = this.db): Promise<boolean> {
    const result = await db.deleteFrom('n8nConnections').executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
