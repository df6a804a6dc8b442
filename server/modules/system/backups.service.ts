/**
 * Backups of the embedded database, remembered: `create()` takes one (server/db/backup.ts, for
 * `parley backup` through the running server or in the CLI) and records when, how large and at
 * which migration in `app_settings` (`last_backup`), so the readiness check can say how old the
 * newest backup is. Recorded once the file was made; the CLI writes it to disk afterwards (and has
 * refused an existing file before asking).
 */
import { z } from 'zod';
import { createBackup, readBackup } from '../../db/backup';
import type { Database } from '../../db/database';
import type { SecretBox } from '../../lib/secret-box';
import type { AppSettingsService } from './app-settings.service';

export const LAST_BACKUP_SETTING = 'last_backup';

const backupRecord = z.object({
  createdAt: z.iso.datetime({ offset: true }),
  bytes: z.number().int().nonnegative(),
  lastMigration: z.string().nullable(),
  parleyVersion: z.string(),
});
export type BackupRecord = z.infer<typeof backupRecord>;

export interface BackupsServiceDeps {
  database: Database;
  secretBox: SecretBox;
  version: string;
  settings: AppSettingsService;
}

export class BackupsService {
  constructor(private readonly deps: BackupsServiceDeps) {}

  /** A consistent backup file of the embedded database (with its key), recorded as the latest. */
  async create(): Promise<Buffer> {
    const { database, secretBox, version, settings } = this.deps;
    const file = await createBackup(database, secretBox, version);
    const { manifest } = readBackup(file);
    const record: BackupRecord = { createdAt: manifest.createdAt, bytes: file.length, lastMigration: manifest.lastMigration, parleyVersion: manifest.parleyVersion };
    await settings.set(LAST_BACKUP_SETTING, JSON.stringify(record));
    return file;
  }

  /** The newest backup Parley made, or null when none is recorded. */
  async lastBackup(): Promise<BackupRecord | null> {
    const value = await this.deps.settings.get(LAST_BACKUP_SETTING);
    if (value === undefined) return null;
    try {
      const parsed = backupRecord.safeParse(JSON.parse(value));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }
}
