import type { Db } from '../../db/database';

/**
 * App-wide settings (`app_settings`, owned by the system module): small values every instance
 * shares — the demo widget's channel, the secrets key's fingerprint, generated secrets. Other
 * modules read and write their keys through this service.
 */
export class AppSettingsService {
  constructor(private readonly db: Db) {}

  async get(key: string, db: Db = this.db): Promise<string | undefined> {
    const row = await db.selectFrom('appSettings').select('value').where('key', '=', key).executeTakeFirst();
    return row?.value;
  }

  async set(key: string, value: string, db: Db = this.db): Promise<void> {
    await db
      .insertInto('appSettings')
      .values({ key, value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
      .execute();
  }
}
