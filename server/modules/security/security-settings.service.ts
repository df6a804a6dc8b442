/**
 * Admin Settings → Security's app-wide settings (docs/admin-settings.md): whether admins and
 * managers must use two-factor authentication, and how long a session lasts without use. Stored as
 * one JSON value in `app_settings` (the system module's, through the store app.ts passes in) and
 * read on every signed-in request, so each instance keeps it for a few seconds; a change made here
 * is seen here at once and by other instances within `cacheMs`.
 */
import { DEFAULT_SECURITY_SETTINGS, type SecuritySettings, securitySettings } from '../../../common/api/security';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import type { SecurityEventsService } from './security-events.service';

/** The `app_settings` key. */
export const SECURITY_SETTINGS_KEY = 'security_settings';
const DEFAULT_CACHE_MS = 5_000;

/** The app-wide settings store (AppSettingsService). */
export interface SettingsStore {
  get(key: string, db?: Db): Promise<string | undefined>;
  set(key: string, value: string, db?: Db): Promise<void>;
}

/** The auth module's sessions, as a shorter lifetime needs them. */
export interface SessionLimits {
  /** Every session that would outlive `latest` ends then instead; how many. */
  shortenSessions(latest: Date, db: Db): Promise<number>;
}

export interface SecuritySettingsDeps {
  db: Db;
  store: SettingsStore;
  sessions: SessionLimits;
  securityEvents: SecurityEventsService;
  clock: Clock;
  /** How long an instance trusts its copy (default 5 s; tests: 0). */
  cacheMs?: number;
}

/** Who changed the settings, from where. */
export interface SettingsActor {
  id: string;
  email: string;
  ip: string | null;
  userAgent: string | null;
}

/** The stored value as it reads: a missing or unreadable one (or a missing field) is the default. */
export function readSecuritySettings(stored: string | undefined): SecuritySettings {
  if (stored === undefined) return DEFAULT_SECURITY_SETTINGS;
  let document: unknown;
  try {
    document = JSON.parse(stored);
  } catch {
    return DEFAULT_SECURITY_SETTINGS;
  }
  const parsed = securitySettings.safeParse({ ...DEFAULT_SECURITY_SETTINGS, ...(typeof document === 'object' && document !== null ? document : {}) });
  return parsed.success ? parsed.data : DEFAULT_SECURITY_SETTINGS;
}

export class SecuritySettingsService {
  #cached: { value: SecuritySettings; until: number } | undefined;

  constructor(private readonly deps: SecuritySettingsDeps) {}

  /** The settings now (this instance's copy, at most `cacheMs` old). */
  async get(): Promise<SecuritySettings> {
    const cached = this.#cached;
    if (cached && cached.until > Date.now()) return cached.value;
    const value = readSecuritySettings(await this.deps.store.get(SECURITY_SETTINGS_KEY));
    this.#cached = { value, until: Date.now() + (this.deps.cacheMs ?? DEFAULT_CACHE_MS) };
    return value;
  }

  /**
   * Saves the settings, recorded as one `security.settings_changed` event naming what changed
   * (nothing is recorded for a save that changes nothing). A shorter session lifetime also ends
   * every open session that would outlive it from now; all in one transaction.
   */
  async update(actor: SettingsActor, next: SecuritySettings): Promise<SecuritySettings> {
    const saved = await this.deps.db.transaction().execute(async (trx) => {
      const before = readSecuritySettings(await this.deps.store.get(SECURITY_SETTINGS_KEY, trx));
      await this.deps.store.set(SECURITY_SETTINGS_KEY, JSON.stringify(next), trx);
      const changes: Record<string, { from: unknown; to: unknown }> = {};
      for (const key of Object.keys(next) as (keyof SecuritySettings)[]) {
        if (before[key] !== next[key]) changes[key] = { from: before[key], to: next[key] };
      }
      let shortened = 0;
      if (next.sessionLifetimeHours < before.sessionLifetimeHours) {
        shortened = await this.deps.sessions.shortenSessions(new Date(this.deps.clock.now().getTime() + next.sessionLifetimeHours * 3_600_000), trx);
      }
      if (Object.keys(changes).length > 0) {
        await this.deps.securityEvents.record(
          {
            type: 'security.settings_changed',
            severity: 'warning',
            userId: actor.id,
            email: actor.email,
            ipAddress: actor.ip,
            userAgent: actor.userAgent,
            details: { changes, ...(shortened > 0 ? { sessionsShortened: shortened } : {}) },
          },
          trx,
        );
      }
      return next;
    });
    this.#cached = { value: saved, until: Date.now() + (this.deps.cacheMs ?? DEFAULT_CACHE_MS) };
    return saved;
  }
}
