/**
 * API keys (issue 14 §4): created by a signed-in person for themselves (`/profile`) or by an
 * administrator for a service account (`/settings` → Security), shown once, stored as a sha256
 * hash, resolved on every key-authenticated request without a cache — so a revocation holds from
 * the next request on, on every instance.
 */
import { randomBytes } from 'node:crypto';
import { API_SCOPES, type ApiScope } from '../../../common/api/api-scopes';
import { API_KEY_PATTERN, type ApiKeyView, type CreatedApiKey, type createApiKeyInput } from '../../../common/api/api-keys';
import type { z } from 'zod';
import type { Db } from '../../db/database';
import type { RequestApiKey, SessionUser } from '../../http/access';
import type { Clock } from '../../lib/clock';
import { sha256Hex, safeEqual } from '../../lib/crypto';
import { AppError, notFound } from '../../lib/errors';
import type { SecurityEventsService } from '../security';
import type { UsersService } from '../users';
import type { ApiKeyRow, ApiKeysRepository } from './api-keys.repository';

type CreateApiKeyCommand = z.output<typeof createApiKeyInput>;

/** Who acts, for the security log. */
export interface ApiKeyActor {
  id: string;
  email: string;
  ip: string | null;
  userAgent: string | null;
}

export interface ApiKeysServiceDeps {
  db: Db;
  repository: ApiKeysRepository;
  users: Pick<UsersService, 'findUserById'>;
  securityEvents: SecurityEventsService;
  clock: Clock;
}

const KEY_PREFIX = 'pk_live_';
/** Compared against when no key has the prefix, so both paths do the same work. */
const NO_HASH = '0'.repeat(64);

export function toApiKeyView(row: ApiKeyRow): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    prefix: `${KEY_PREFIX}${row.prefix}`,
    scopes: API_SCOPES.filter((s) => row.scopes.includes(s)),
    service: row.service,
    owner: { id: row.userId, name: row.ownerName, email: row.ownerEmail },
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    lastUsedIp: row.lastUsedIp,
  };
}

export class ApiKeysService {
  constructor(private readonly deps: ApiKeysServiceDeps) {}

  async findPersonalKeys(userId: string): Promise<ApiKeyView[]> {
    return (await this.deps.repository.findPersonalKeys(userId)).map(toApiKeyView);
  }

  async findServiceKeys(): Promise<ApiKeyView[]> {
    return (await this.deps.repository.findServiceKeys()).map(toApiKeyView);
  }

  /** A new key for the actor (a service-account key when `service`); the key is in the answer only. */
  async createKey(actor: ApiKeyActor, input: CreateApiKeyCommand, options: { service: boolean }): Promise<CreatedApiKey> {
    const now = this.deps.clock.now();
    const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
    if (expiresAt && expiresAt.getTime() <= now.getTime()) {
      throw new AppError('VALIDATION_ERROR', 'The expiry must be in the future', { fields: { expiresAt: 'The expiry must be in the future' } });
    }
    for (let attempt = 0; attempt < 5; attempt++) {
      const prefix = randomBytes(6).toString('hex');
      const key = `${KEY_PREFIX}${prefix}_${randomBytes(32).toString('base64url')}`;
      const id = await this.deps.db.transaction().execute(async (trx) => {
        const inserted = await this.deps.repository.insertKey(
          { userId: actor.id, name: input.name, service: options.service, prefix, keyHash: sha256Hex(key), scopes: [...input.scopes], expiresAt },
          trx,
        );
        if (inserted === undefined) return undefined;
        await this.deps.securityEvents.record(
          {
            type: 'api_keys.created',
            userId: actor.id,
            email: actor.email,
            ipAddress: actor.ip,
            userAgent: actor.userAgent,
            details: { apiKeyId: inserted, name: input.name, prefix: `${KEY_PREFIX}${prefix}`, scopes: input.scopes, service: options.service, expiresAt: expiresAt?.toISOString() ?? null },
          },
          trx,
        );
        return inserted;
      });
      if (id === undefined) continue; // 48 random bits collided with a stored prefix: draw again
      const row = await this.deps.repository.findKeyRow(id);
      if (!row) throw notFound('API key');
      return { apiKey: toApiKeyView(row), key };
    }
    throw new AppError('INTERNAL', 'Could not draw an unused key prefix');
  }

  /** Revokes one of the actor's own keys, or (service) any service-account key. 404 otherwise. */
  async revokeKey(actor: ApiKeyActor, id: string, options: { service: boolean }): Promise<void> {
    const now = this.deps.clock.now();
    await this.deps.db.transaction().execute(async (trx) => {
      const filter = options.service ? { id, service: true } : { id, userId: actor.id, service: false };
      if (!(await this.deps.repository.revokeKey(filter, actor.id, now, trx))) throw notFound('API key');
      await this.deps.securityEvents.record(
        { type: 'api_keys.revoked', userId: actor.id, email: actor.email, ipAddress: actor.ip, userAgent: actor.userAgent, details: { apiKeyId: id, service: options.service } },
        trx,
      );
    });
  }

  /**
   * The user and key behind `Authorization: Bearer <key>`, or a 401 saying why. Read from the
   * database on every request (no cache), so revocation and deactivation hold at once.
   */
  async authenticate(key: string, ip: string): Promise<{ user: SessionUser; apiKey: RequestApiKey }> {
    const match = API_KEY_PATTERN.exec(key);
    const credential = match ? await this.deps.repository.findCredential(match[1]!) : undefined;
    const matches = safeEqual(sha256Hex(key), credential?.keyHash ?? NO_HASH);
    if (!credential || !matches) throw new AppError('UNAUTHENTICATED', 'Invalid API key');
    if (credential.revokedAt) throw new AppError('UNAUTHENTICATED', 'This API key has been revoked');
    const now = this.deps.clock.now();
    if (credential.expiresAt && credential.expiresAt.getTime() <= now.getTime()) throw new AppError('UNAUTHENTICATED', 'This API key has expired');
    const user = await this.deps.users.findUserById(credential.userId);
    if (!user || user.disabledAt || user.clientInactive) throw new AppError('UNAUTHENTICATED', 'The account this API key belongs to is deactivated');
    if (!credential.lastUsedAt || now.getTime() - credential.lastUsedAt.getTime() >= 60_000) {
      await this.deps.repository.touchLastUsed(credential.id, ip, now);
    }
    return {
      user: { id: user.id, email: user.email, name: user.fullName, role: user.role, clientId: user.clientId, sessionId: '', emailVerified: user.emailVerified },
      apiKey: { id: credential.id, scopes: API_SCOPES.filter((s): s is ApiScope => credential.scopes.includes(s)) },
    };
  }
}
