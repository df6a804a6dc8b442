/** `app_settings` (owned by the system module): small key/value settings every instance shares. */
import { sql } from 'kysely';
import type { Db } from '../../db/database';

export class AppSettingsRepository {
  constructor(private readonly db: Db) {}

  async find(key: string, db: Db = this.db): Promise<string | undefined> {
    const row = await db.selectFrom('appSettings').select('value').where('key', '=', key).executeTakeFirst();
    return row?.value;
  }

  /** The setting's value; Kysely's NoResultError when it is not set. */
  async get(key: string, db: Db = this.db): Promise<string> {
    const row = await db.selectFrom('appSettings').select('value').where('key', '=', key).executeTakeFirstOrThrow();
    return row.value;
  }

  /** Sets the value, replacing any. */
  async set(key: string, value: string, db: Db = this.db): Promise<void> {
    await db
      .insertInto('appSettings')
      .values({ key, value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
      .execute();
  }

  /** Sets the value unless the key is already set (the first writer wins). */
  async setIfAbsent(key: string, value: string, db: Db = this.db): Promise<void> {
    await db
      .insertInto('appSettings')
      .values({ key, value })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
  }

  /** One sealed value from the tables that hold them, if any (the secrets key check's upgrade path). */
  async findAnySealedSecret(db: Db = this.db): Promise<string | undefined> {
    const { rows } = await sql<{ sealed: string }>`
    (select secrets as sealed from channels where secrets is not null limit 1)
    union all
    (select llm_api_key_sealed as sealed from agents where llm_api_key_sealed is not null limit 1)
    union all
    (select api_key_sealed as sealed from n8n_connections limit 1)
    limit 1`.execute(db);
    return rows[0]?.sealed;
  }
}
