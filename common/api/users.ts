import { z } from 'zod';
import { ROLES } from '../roles';
import { emailSchema, nameSchema, newPasswordSchema } from '../validation/auth';

export const role = z.enum(ROLES);

const isoDate = z.iso.datetime({ offset: true });

/** The signed-in user (spec "current user view"), with the profile fields. */
export const currentUser = z.object({
  id: z.uuid(),
  email: z.string(),
  name: z.string(),
  role,
  avatarUrl: z.string().nullable(),
  phone: z.string().nullable(),
  company: z.string().nullable(),
  clientId: z.uuid().nullable(),
  emailVerified: z.boolean(),
  mfaEnabled: z.boolean(),
  createdAt: isoDate,
  lastLogin: isoDate.nullable(),
  /**
   * The app requires two-factor authentication of admins and managers (Admin Settings → Security)
   * and this user has not set it up: until they do, every other API call answers 403
   * TWO_FACTOR_REQUIRED and the app shows only the setup (docs/admin-settings.md). Sent by the
   * session and sign-in answers; absent elsewhere.
   */
  twoFactorSetupRequired: z.boolean().optional(),
});
export type CurrentUser = z.infer<typeof currentUser>;

export const userStatus = z.enum(['active', 'unverified', 'disabled']);
export type UserStatus = z.infer<typeof userStatus>;

/** A row of the admin user list. */
export const userSummary = z.object({
  id: z.uuid(),
  email: z.string(),
  name: z.string(),
  role,
  status: userStatus,
  clientId: z.uuid().nullable(),
  mfaEnabled: z.boolean(),
  createdAt: isoDate,
  lastLogin: isoDate.nullable(),
  roleAssignedBy: z.uuid().nullable(),
  roleAssignedAt: isoDate.nullable(),
});
export type UserSummary = z.infer<typeof userSummary>;

export const findUsersQuery = z.object({
  search: z.string().trim().max(254).optional(),
  role: role.optional(),
});
export const findUsersResponse = z.object({ users: z.array(userSummary) });

export const createUserInput = z.object({
  email: emailSchema,
  name: nameSchema,
  password: newPasswordSchema,
  role,
  clientId: z.uuid().nullable().optional(),
});
export type CreateUserInput = z.input<typeof createUserInput>;

export const userIdParams = z.object({ id: z.uuid() });

export const updateRoleInput = z.object({ role });
export type UpdateRoleInput = z.infer<typeof updateRoleInput>;

/**
 * Why a role change was refused (`error.details.reason`), so the web shows the spec's toast:
 * own_role -> "Invalid Operation", last_admin -> "Operation Not Allowed".
 */
export const roleChangeRefusal = z.enum(['own_role', 'last_admin']);
export const ROLE_CHANGE_MESSAGES = {
  notAdmin: 'Only administrators can modify user roles.',
  ownRole: 'You cannot modify your own role.',
  lastAdmin: 'Cannot remove the last administrator from the system.',
} as const;
