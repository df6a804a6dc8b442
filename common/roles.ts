/**
 * Portal roles (spec part 1 §2.10, §6 reading B). For rank checks admin 3 > manager 2 > client 1,
 * mirroring reading A's admin 3 > moderator 2 > user 1.
 */
export const ROLES = ['admin', 'manager', 'client'] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_RANK: Readonly<Record<Role, number>> = { client: 1, manager: 2, admin: 3 };

/** The role used when none is recorded (the spec's fallback). */
export const DEFAULT_ROLE: Role = 'client';

export function hasRank(role: Role, required: Role): boolean {
  return ROLE_RANK[role] >= ROLE_RANK[required];
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export function roleLabel(role: Role): string {
  return role.charAt(0).toUpperCase() + role.slice(1);
}
