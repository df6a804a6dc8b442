/**
 * API keys (issue 14 §4; server: server/modules/api-keys). A key is shown once, when created, and
 * is stored only as a hash; lists show its prefix. Sessions only: a key cannot manage keys.
 *
 *   GET    /api/v1/me/api-keys            -> apiKeysResponse (my own keys, revoked ones left out)
 *   POST   /api/v1/me/api-keys            createApiKeyInput -> 201 createdApiKey
 *   DELETE /api/v1/me/api-keys/:id        -> 204 (revoke; the next request with it answers 401)
 *   GET    /api/v1/admin/api-keys         -> apiKeysResponse (service-account keys, admins)
 *   POST   /api/v1/admin/api-keys         createApiKeyInput -> 201 createdApiKey
 *   DELETE /api/v1/admin/api-keys/:id     -> 204
 *
 * A key is `pk_live_<12 hex: prefix>_<43 base64url: secret>`, sent as `Authorization: Bearer <key>`.
 */
import { z } from 'zod';
import { API_SCOPES, apiScope } from './api-scopes';

const isoDate = z.iso.datetime({ offset: true });

export const API_KEY_PATTERN = /^pk_live_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/u;
export const API_KEY_NAME_MAX = 100;

export const apiKeyView = z.object({
  id: z.uuid(),
  name: z.string(),
  /** What lists show: `pk_live_<prefix>…` (the secret part is never stored). */
  prefix: z.string(),
  scopes: z.array(apiScope),
  /** A service-account key (`/settings` → Security), acting as the administrator who created it. */
  service: z.boolean(),
  /** Who the key acts as. */
  owner: z.object({ id: z.uuid(), name: z.string(), email: z.string() }),
  createdAt: isoDate,
  expiresAt: isoDate.nullable(),
  lastUsedAt: isoDate.nullable(),
  lastUsedIp: z.string().nullable(),
});
export type ApiKeyView = z.infer<typeof apiKeyView>;

export const apiKeysResponse = z.object({ apiKeys: z.array(apiKeyView) });

export const createApiKeyInput = z.object({
  name: z
    .string({ error: 'Please enter a name' })
    .trim()
    .min(1, { error: 'Please enter a name' })
    .max(API_KEY_NAME_MAX, { error: `Name must be at most ${API_KEY_NAME_MAX} characters` }),
  /** Optional; must be in the future (checked by the server against its clock). */
  expiresAt: isoDate.nullable().optional(),
  scopes: z
    .array(apiScope, { error: 'Choose at least one scope' })
    .min(1, { error: 'Choose at least one scope' })
    .max(API_SCOPES.length)
    .transform((scopes) => API_SCOPES.filter((s) => scopes.includes(s))),
});
export type CreateApiKeyInput = z.input<typeof createApiKeyInput>;

/** The key itself is in `key`, this once. */
export const createdApiKey = z.object({ apiKey: apiKeyView, key: z.string() });
export type CreatedApiKey = z.infer<typeof createdApiKey>;

export const apiKeyIdParams = z.object({ id: z.uuid() });
