/**
 * The SQL of knowledge bases: FAQ entries, articles, the per-client version and training state
 * (`knowledge_bases`) and the trained models (`agent_models`). Callers inside a transaction pass
 * it as `db`.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import type { AgentModelMetrics, KnowledgeBaseRow } from '../../db/schema';

type EntryRow = { id: string; clientId: string; questions: string[]; answer: string; link: string | null; createdAt: Date; updatedAt: Date };
type ArticleRow = { id: string; clientId: string; title: string; body: string; createdAt: Date; updatedAt: Date };
type NewEntry = { clientId: string; questions: string[]; answer: string; link: string | null; createdAt: Date };
type TrainingState = { trainingStatus?: 'training' | 'failed'; trainingProgress?: number; trainingError?: string | null };
export type SnapshotEntry = { id: string; questions: string[]; answer: string; link: string | null };
export type SnapshotArticle = { id: string; title: string; body: string };

export class KnowledgeRepository {
  constructor(private readonly db: Db) {}

  // Knowledge bases ------------------------------------------------------------------------------

  async findBase(clientId: string, db: Db = this.db): Promise<KnowledgeBaseRow | undefined> {
    return db.selectFrom('knowledgeBases').selectAll().where('clientId', '=', clientId).executeTakeFirst();
  }

  async findLiveVersion(clientId: string): Promise<{ liveVersion: number | null } | undefined> {
    return this.db.selectFrom('knowledgeBases').select('liveVersion').where('clientId', '=', clientId).executeTakeFirst();
  }

  async hasBase(clientId: string): Promise<boolean> {
    const row = await this.db.selectFrom('knowledgeBases').select('clientId').where('clientId', '=', clientId).executeTakeFirst();
    return row !== undefined;
  }

  /** A new version (1 for the first), queued for training unless one is training now. */
  async bumpVersion(clientId: string, now: Date, trx: Db): Promise<number> {
    const row = await trx
      .insertInto('knowledgeBases')
      .values({ clientId, version: 1, trainingStatus: 'queued', trainingProgress: 0, updatedAt: now })
      .onConflict((oc) =>
        oc.column('clientId').doUpdateSet({
          version: sql`knowledge_bases.version + 1`,
          trainingStatus: sql`case when knowledge_bases.training_status = 'training' then 'training' else 'queued' end`,
          trainingError: null,
          updatedAt: now,
        }),
      )
      .returning('version')
      .executeTakeFirstOrThrow();
    return row.version;
  }

  /** Sets the training state if `version` is still the newest (otherwise nothing). */
  async setTrainingIfNewest(clientId: string, version: number, state: TrainingState): Promise<void> {
    await this.db.updateTable('knowledgeBases').where('clientId', '=', clientId).where('version', '=', version).set(state).execute();
  }

  /**
   * Stores the trained model of `version` with the knowledge it was trained on, makes it live
   * (the live version only moves forward) and deletes models older than `keepOld` versions before it.
   */
  async storeModel(
    clientId: string,
    version: number,
    model: { knowledge: { entries: SnapshotEntry[]; articles: SnapshotArticle[] }; model: unknown; metrics: AgentModelMetrics },
    now: Date,
    keepOld: number,
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('agentModels')
        .values({ clientId, version, knowledge: JSON.stringify(model.knowledge), model: JSON.stringify(model.model ?? null), metrics: JSON.stringify(model.metrics) })
        .onConflict((oc) => oc.columns(['clientId', 'version']).doNothing())
        .execute();
      await trx
        .updateTable('knowledgeBases')
        .set({
          liveVersion: sql`greatest(coalesce(live_version, 0), ${version}::integer)`,
          liveAt: sql`case when coalesce(live_version, 0) < ${version}::integer then ${now}::timestamptz else live_at end`,
          trainingProgress: sql`case when version = ${version}::integer then 1 else training_progress end`,
          trainingStatus: sql`case when version = ${version}::integer then 'idle' else training_status end`,
        })
        .where('clientId', '=', clientId)
        .execute();
      await trx.deleteFrom('agentModels').where('clientId', '=', clientId).where('version', '<', version - keepOld).execute();
    });
  }

  async findModelMetrics(clientId: string, version: number, db: Db = this.db): Promise<AgentModelMetrics | undefined> {
    const row = await db.selectFrom('agentModels').select('metrics').where('clientId', '=', clientId).where('version', '=', version).executeTakeFirst();
    return row?.metrics;
  }

  async findModel(
    clientId: string,
    version: number,
  ): Promise<{ version: number; knowledge: { entries: SnapshotEntry[]; articles: SnapshotArticle[] }; model: unknown } | undefined> {
    return this.db.selectFrom('agentModels').select(['knowledge', 'model', 'version']).where('clientId', '=', clientId).where('version', '=', version).executeTakeFirst();
  }

  // Entries and articles -------------------------------------------------------------------------

  /** The client's entries and articles (in the order they were made), those matching `search` if given. */
  async search(clientId: string, search?: string): Promise<[EntryRow[], ArticleRow[]]> {
    let entries = this.db.selectFrom('knowledgeEntries').selectAll().where('clientId', '=', clientId);
    let articles = this.db.selectFrom('knowledgeArticles').selectAll().where('clientId', '=', clientId);
    if (search) {
      const like = `%${search.replace(/[\\%_]/gu, (c) => `\\${c}`)}%`;
      entries = entries.where((eb) => eb.or([eb('answer', 'ilike', like), eb(sql`questions::text`, 'ilike', like), eb('link', 'ilike', like)]));
      articles = articles.where((eb) => eb.or([eb('title', 'ilike', like), eb('body', 'ilike', like)]));
    }
    return Promise.all([entries.orderBy('createdAt').orderBy('id').execute(), articles.orderBy('createdAt').orderBy('id').execute()]);
  }

  async totals(clientId: string): Promise<{ entries: number; articles: number }> {
    const totals = await this.db
      .selectFrom('clients')
      .select((eb) => [
        eb.selectFrom('knowledgeEntries').select(sql<string>`count(*)`.as('n')).where('clientId', '=', clientId).as('entries'),
        eb.selectFrom('knowledgeArticles').select(sql<string>`count(*)`.as('n')).where('clientId', '=', clientId).as('articles'),
      ])
      .where('id', '=', clientId)
      .executeTakeFirstOrThrow();
    return { entries: Number(totals.entries ?? 0), articles: Number(totals.articles ?? 0) };
  }

  /** What training reads: the entries and articles in the order they were made. */
  async snapshot(clientId: string): Promise<[SnapshotEntry[], SnapshotArticle[]]> {
    return Promise.all([
      this.db.selectFrom('knowledgeEntries').select(['id', 'questions', 'answer', 'link']).where('clientId', '=', clientId).orderBy('createdAt').orderBy('id').execute(),
      this.db.selectFrom('knowledgeArticles').select(['id', 'title', 'body']).where('clientId', '=', clientId).orderBy('createdAt').orderBy('id').execute(),
    ]);
  }

  async entries(clientId: string): Promise<EntryRow[]> {
    return this.db.selectFrom('knowledgeEntries').selectAll().where('clientId', '=', clientId).orderBy('createdAt').orderBy('id').execute();
  }

  async insertEntry(entry: NewEntry, trx: Db): Promise<EntryRow> {
    return trx.insertInto('knowledgeEntries').values({ ...entry, questions: JSON.stringify(entry.questions) }).returningAll().executeTakeFirstOrThrow();
  }

  /** Inserts many entries, one statement per few hundred rows. */
  async insertEntries(entries: readonly NewEntry[], trx: Db): Promise<void> {
    for (let i = 0; i < entries.length; i += 500) {
      await trx
        .insertInto('knowledgeEntries')
        .values(entries.slice(i, i + 500).map((e) => ({ ...e, questions: JSON.stringify(e.questions) })))
        .execute();
    }
  }

  async updateEntry(id: string, values: { questions: string[]; answer: string; link: string | null; updatedAt: Date }, trx: Db): Promise<EntryRow | undefined> {
    return trx.updateTable('knowledgeEntries').set({ ...values, questions: JSON.stringify(values.questions) }).where('id', '=', id).returningAll().executeTakeFirst();
  }

  /** The deleted entry's client, if there was one. */
  async deleteEntry(id: string, trx: Db): Promise<string | undefined> {
    const row = await trx.deleteFrom('knowledgeEntries').where('id', '=', id).returning('clientId').executeTakeFirst();
    return row?.clientId;
  }

  async deleteEntriesOf(clientId: string, trx: Db): Promise<void> {
    await trx.deleteFrom('knowledgeEntries').where('clientId', '=', clientId).execute();
  }

  async insertArticle(article: { clientId: string; title: string; body: string; createdAt: Date }, trx: Db): Promise<ArticleRow> {
    return trx.insertInto('knowledgeArticles').values(article).returningAll().executeTakeFirstOrThrow();
  }

  async updateArticle(id: string, values: { title: string; body: string; updatedAt: Date }, trx: Db): Promise<ArticleRow | undefined> {
    return trx.updateTable('knowledgeArticles').set(values).where('id', '=', id).returningAll().executeTakeFirst();
  }

  /** The deleted article's client, if there was one. */
  async deleteArticle(id: string, trx: Db): Promise<string | undefined> {
    const row = await trx.deleteFrom('knowledgeArticles').where('id', '=', id).returning('clientId').executeTakeFirst();
    return row?.clientId;
  }
}
