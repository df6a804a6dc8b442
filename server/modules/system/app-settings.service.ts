import type { Db } from '../../db/database';
import { AppSettingsRepository } from './app-settings.repository';

/**
 * App-wide settings (`app_settings`, owned by the system module): small values every instance
 * shares — the demo widget's channel, the secrets key's fingerprint, generated secrets. Other
 * modules read and write their keys through this service.
 */
export class AppSettingsService {
  readonly #settings: AppSettingsRepository;

  constructor(db: Db) {
    this.#settings = new AppSettingsRepository(db);
  }

  async get(key: string, db?: Db): Promise<string | undefined> {
    return this.#settings.find(key, db);
  }

  async set(key: string, value: string, db?: Db): Promise<void> {
    await this.#settings.set(key, value, db);
  }
}
