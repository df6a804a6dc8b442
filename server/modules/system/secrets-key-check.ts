/**
 * Startup check that this instance holds the database's secrets key. Without it, an instance on a
 * shared PostgreSQL that was started without SECRETS_KEY generates a key of its own, cannot open a
 * single channel secret, and refuses every valid Meta delivery while it reports itself healthy.
 *
 * The database records a fingerprint of the key (`SecretBox.fingerprint()`: an HMAC of a fixed
 * label, never the key) in `app_settings`. The first start records it; every start compares it.
 * A database that already holds sealed secrets but no fingerprint (an upgrade) is checked by
 * opening one of them before the fingerprint is recorded.
 */
import type { Db } from '../../db/database';
import type { SecretBox } from '../../lib/secret-box';
import { AppSettingsRepository } from './app-settings.repository';

export const SECRETS_KEY_SETTING = 'secrets_key_fingerprint';

export class SecretsKeyMismatchError extends Error {
  constructor(box: SecretBox, reason: string) {
    const source = box.source === 'SECRETS_KEY' ? 'SECRETS_KEY' : `${box.source} (generated because SECRETS_KEY is not set)`;
    super(
      `Refusing to start: the secrets key in use (${source}) is not the key this database was set up with (${reason}). ` +
        'Channel secrets could not be opened and every webhook would be refused. Set SECRETS_KEY to the key the other ' +
        'instances use, or put the original DATA_DIR/secrets.key back.',
    );
    this.name = 'SecretsKeyMismatchError';
  }
}

/** Throws SecretsKeyMismatchError when `box` is not the database's key; records the fingerprint on first use. */
export async function checkSecretsKey(db: Db, box: SecretBox): Promise<void> {
  const fingerprint = box.fingerprint();
  const settings = new AppSettingsRepository(db);
  let recorded = await settings.find(SECRETS_KEY_SETTING);
  if (recorded === undefined) {
    const sealed = await settings.findAnySealedSecret();
    if (sealed !== undefined) {
      try {
        box.open(sealed);
      } catch {
        throw new SecretsKeyMismatchError(box, 'it cannot open the secrets already stored');
      }
    }
    // Two instances starting together on a new database: the first insert wins, the other compares.
    await settings.setIfAbsent(SECRETS_KEY_SETTING, fingerprint);
    recorded = await settings.get(SECRETS_KEY_SETTING);
  }
  if (recorded !== fingerprint) throw new SecretsKeyMismatchError(box, 'its fingerprint does not match the one recorded');
}
