import type { Db } from '../../db/database';
import { randomToken } from '../../lib/crypto';

/**
 * A secret generated once and shared by every instance on the same database (the first instance
 * to start writes it; the others read it). Used when AUTH_SECRET is not configured.
 */
export async function getOrCreateSecret(db: Db, key: string): Promise<string> {
  await db
    .insertInto('appSettings')
    .values({ key, value: randomToken(48) })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db.selectFrom('appSettings').select('value').where('key', '=', key).executeTakeFirstOrThrow();
  return row.value;
}
