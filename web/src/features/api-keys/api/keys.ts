/** Whose keys: the signed-in person's own (`/profile`), or the service-account keys (`/settings`, admins). */
export type ApiKeyKind = 'personal' | 'service';

export const apiKeysKeys = {
  list: (kind: ApiKeyKind) => (kind === 'personal' ? (['me', 'api-keys'] as const) : (['admin', 'api-keys'] as const)),
};

export function apiKeysPath(kind: ApiKeyKind): string {
  return kind === 'personal' ? '/api/v1/me/api-keys' : '/api/v1/admin/api-keys';
}
