import type { Db } from '../../db/database';
import { randomToken } from '../../lib/crypto';
import { AppSettingsRepository } from './app-settings.repository';

/**
 * A secret generated once and shared by every instance on the same database (the first instance
 * to start writes it; the others read it). Used when AUTH_SECRET is not configured.
 */
export async function getOrCreateSecret(db: Db, key: string): Promise<string> {
  const settings = new AppSettingsRepository(db);
  await settings.setIfAbsent(key, randomToken(48));
  return settings.get(key);
}
