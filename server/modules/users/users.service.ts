import type { Logger } from 'pino';
import type { NotificationPreferences, UpdateNotificationPreferencesInput } from '../../../common/api/me';
import { ROLE_CHANGE_MESSAGES, type UserSummary } from '../../../common/api/users';
import { newPasswordSchema } from '../../../common/validation/auth';
import type { Role } from '../../../common/roles';
import type { Db } from '../../db/database';
import type { SessionUser } from '../../http/access';
import type { SecurityEventsService } from '../security';
import { randomToken } from '../../lib/crypto';
import { AppError, isUniqueViolation } from '../../lib/errors';
import { hashPassword } from '../../lib/password-hash';
import type { AdminAccount, Recipient, ReportRecipient, UsersRepository, UserWithRole } from './users.repository';
import type { ProfileChanges, UserProfileRepository } from './user-profile.repository';

export function toUserSummary(u: UserWithRole): UserSummary {
  return {
    id: u.id,
    email: u.email,
    name: u.fullName,
    role: u.role,
    status: u.disabledAt ? 'disabled' : u.emailVerified ? 'active' : 'unverified',
    clientId: u.clientId,
    mfaEnabled: u.twoFactorEnabled,
    createdAt: u.createdAt.toISOString(),
    lastLogin: u.lastLoginAt ? u.lastLoginAt.toISOString() : null,
    roleAssignedBy: u.roleAssignedBy,
    roleAssignedAt: u.roleAssignedAt ? u.roleAssignedAt.toISOString() : null,
  };
}

export interface CreateUserCommand {
  email: string;
  name: string;
  password: string;
  role: Role;
  clientId?: string | null;
  /** The admin who created the account (null for the system and the command line). */
  assignedBy?: string | null;
}

export interface UsersServiceDeps {
  db: Db;
  users: UsersRepository;
  profiles: UserProfileRepository;
  securityEvents: SecurityEventsService;
  logger: Logger;
}

/** Advisory lock key that serialises every change to the set of administrators. */
export const ADMIN_ROLES_LOCK = 0x7061726c;

export class UsersService {
  constructor(private readonly deps: UsersServiceDeps) {}

  /**
   * Creates an active account whose e-mail counts as verified, with its password and role, in one
   * transaction: either all of it exists afterwards or none of it.
   */
  async createUser(command: CreateUserCommand): Promise<UserWithRole> {
    const passwordHash = await hashPassword(command.password);
    try {
      return await this.deps.db.transaction().execute(async (trx) => {
        if (command.clientId) {
          if (!(await this.deps.users.clientExists(command.clientId, trx))) {
            throw new AppError('VALIDATION_ERROR', 'Client not found', { fields: { clientId: 'Client not found' } });
          }
        }
        const userId = await this.deps.users.insertVerifiedUser(
          { email: command.email, fullName: command.name, clientId: command.clientId ?? null, passwordHash, role: command.role, assignedBy: command.assignedBy ?? null },
          trx,
        );
        return this.deps.users.getUserById(userId, trx);
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new AppError('CONFLICT', 'An account with this email already exists', {
          fields: { email: 'An account with this email already exists' },
          cause: error,
        });
      }
      throw error;
    }
  }

  // Joining a client business (the onboarding module: approvals and invitations), inside its transaction.

  /** The account with this id or e-mail, its row locked until `trx` ends; undefined when there is none. */
  async lockAccount(filter: { id: string } | { email: string }, trx: Db): Promise<UserWithRole | undefined> {
    const id = await this.deps.users.lockUserRow(filter, trx);
    return id === undefined ? undefined : this.deps.users.getUserById(id, trx);
  }

  /**
   * Makes a plain account (role client, no client yet) a user of `clientId`, inside `trx` (lock it
   * first with `lockAccount`). A staff account, or one of another client, is refused (CONFLICT):
   * joining a business never changes a role, so the last-administrator rule cannot be touched.
   * `verifyEmail`: the caller proved the address (an invitation link), so it counts as verified.
   */
  async linkClientAccount(userId: string, clientId: string, trx: Db, options: { verifyEmail?: boolean } = {}): Promise<void> {
    const user = await this.deps.users.getUserById(userId, trx);
    if (user.role !== 'client') throw new AppError('CONFLICT', 'A staff account cannot join a client business', { details: { reason: 'staff_account' } });
    if (user.clientId !== null && user.clientId !== clientId) {
      throw new AppError('CONFLICT', 'This account already belongs to another business', { details: { reason: 'other_client' } });
    }
    await this.deps.users.setClient(userId, clientId, options.verifyEmail === true, trx);
  }

  /**
   * A client user's account from an invitation, inside `trx`: active, the e-mail verified (the link
   * proved it), role client, with its password hash. CONFLICT when the address is taken.
   */
  async createClientAccount(input: { email: string; name: string; passwordHash: string; clientId: string }, trx: Db): Promise<string> {
    try {
      return await this.deps.users.insertVerifiedUser(
        { email: input.email, fullName: input.name, clientId: input.clientId, passwordHash: input.passwordHash, role: 'client', assignedBy: null },
        trx,
      );
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new AppError('CONFLICT', 'An account with this email already exists', { fields: { email: 'An account with this email already exists' }, cause: error });
      }
      throw error;
    }
  }

  async findUsers(filter: { search?: string | undefined; role?: Role | undefined }): Promise<UserSummary[]> {
    return (await this.deps.users.findUsers(filter)).map(toUserSummary);
  }

  /**
   * Role change with the spec's rules: only admins, never one's own role, never the last
   * administrator. The check and the write happen under one transaction-scoped lock, so two admins
   * demoting each other at the same moment cannot leave zero.
   */
  async changeRole(actor: SessionUser, targetUserId: string, role: Role): Promise<UserSummary> {
    if (actor.role !== 'admin') throw new AppError('FORBIDDEN', ROLE_CHANGE_MESSAGES.notAdmin);
    if (actor.id === targetUserId) {
      throw new AppError('BAD_REQUEST', ROLE_CHANGE_MESSAGES.ownRole, { details: { reason: 'own_role' } });
    }
    const updated = await this.deps.db.transaction().execute(async (trx) => {
      await this.deps.users.lockAdminRoles(ADMIN_ROLES_LOCK, trx);
      const target = await this.deps.users.getUserById(targetUserId, trx);
      if (target.role === role) return target;
      if (target.role === 'admin') {
        // The administrators left afterwards: active ones other than the target.
        const count = await this.deps.users.countActiveAdminsExcept(target.id, trx);
        if (count === 0) {
          throw new AppError('CONFLICT', ROLE_CHANGE_MESSAGES.lastAdmin, { details: { reason: 'last_admin' } });
        }
      }
      await this.deps.users.setRole({ userId: target.id, oldRole: target.role, newRole: role, assignedBy: actor.id, assignedAt: new Date() }, trx);
      await this.deps.securityEvents.record(
        {
          type: 'users.role_changed',
          severity: 'warning',
          userId: target.id,
          email: target.email,
          details: { from: target.role, to: role, by: actor.id },
        },
        trx,
      );
      return this.deps.users.getUserById(target.id, trx);
    });
    return toUserSummary(updated);
  }

  // Accounts as other modules read them (auth, profile, the command line).
  async findUserById(id: string, db?: Db): Promise<UserWithRole | undefined> {
    return this.deps.users.findUserById(id, db);
  }

  async getUserById(id: string, db?: Db): Promise<UserWithRole> {
    return this.deps.users.getUserById(id, db);
  }

  async findUserByEmail(email: string): Promise<UserWithRole | undefined> {
    return this.deps.users.findUserByEmail(email);
  }

  async touchLastLogin(userId: string, at: Date): Promise<void> {
    await this.deps.users.touchLastLogin(userId, at);
  }

  /**
   * Whether the account is disabled or its client deactivated (false for no such account):
   * better-auth refuses it a session.
   */
  async isDisabled(userId: string): Promise<boolean> {
    return this.deps.users.isDisabled(userId);
  }

  /** Every new account gets the spec's fallback role the moment it exists (better-auth's user hook). */
  async assignDefaultRole(userId: string): Promise<void> {
    await this.deps.users.assignDefaultRole(userId);
  }

  /** When the user was last active in the app (chats' presence). */
  async touchLastSeen(userId: string, at: Date): Promise<void> {
    await this.deps.users.touchLastSeen(userId, at);
  }

  /** A self-service account (sign-up); false when the e-mail is taken (UsersRepository.createPasswordUser). */
  async createPasswordUser(user: { id: string; email: string; name: string; passwordHash: string }): Promise<boolean> {
    return this.deps.users.createPasswordUser(user);
  }

  // A person's own profile (the profile module).
  /** Undefined fields stay as they are; null clears. False when there is no such user. */
  async updateProfile(userId: string, changes: ProfileChanges): Promise<boolean> {
    return this.deps.profiles.updateProfile(userId, changes);
  }

  async getNotificationPreferences(userId: string): Promise<NotificationPreferences | undefined> {
    return this.deps.profiles.getNotificationPreferences(userId);
  }

  async setNotificationPreferences(userId: string, preferences: NotificationPreferences): Promise<boolean> {
    return this.deps.profiles.setNotificationPreferences(userId, preferences);
  }

  /** Changes only the switches given; the preferences as they now read (undefined: no such user). */
  async updateNotificationPreferences(userId: string, changes: UpdateNotificationPreferencesInput): Promise<NotificationPreferences | undefined> {
    return this.deps.profiles.updateNotificationPreferences(userId, changes);
  }

  /**
   * Who is told about a conversation: admins and managers (or only `staffRoles`) and, with
   * `clientId`, that client's own users (enabled accounts, with their notification preferences).
   */
  async findRecipients(filter: { clientId?: string; staffRoles?: readonly Role[] }, db?: Db): Promise<Recipient[]> {
    return this.deps.users.findRecipients(filter, db);
  }

  /** The enabled administrators, with whether each has two-factor on and their notification preferences. */
  async findAdmins(): Promise<AdminAccount[]> {
    return this.deps.users.findAdmins();
  }

  /** The enabled accounts that asked for the daily or weekly report (that preference on), optionally only of `roles`. */
  async findReportRecipients(preference: 'dailyReports' | 'weeklyReports', roles?: readonly Role[]): Promise<ReportRecipient[]> {
    return this.deps.users.findReportRecipients(preference, roles);
  }

  async adminExists(db: Db = this.deps.db): Promise<boolean> {
    return this.deps.users.adminExists(db);
  }

  /**
   * Whenever Parley starts without an administrator, it creates one: from ADMIN_EMAIL /
   * ADMIN_PASSWORD, or with a generated password printed once (never stored in clear).
   */
  async ensureFirstAdmin(admin: { email: string | undefined; password: string | undefined; name: string }): Promise<FirstAdminResult> {
    if (await this.adminExists()) return { created: false };
    const email = (admin.email ?? 'admin@parley.local').trim().toLowerCase();
    const generated = admin.password === undefined;
    const password = admin.password ?? generatePassword();
    const checked = newPasswordSchema.safeParse(password);
    if (!checked.success) {
      throw new Error(`ADMIN_PASSWORD does not meet the password policy: ${checked.error.issues[0]?.message ?? ''}`);
    }
    const existing = await this.deps.users.findUserByEmail(email);
    if (existing) {
      // An account with that address exists but no administrator does: promote it.
      await this.deps.db.transaction().execute(async (trx) => {
        await this.deps.users.promoteToAdmin(existing.id, existing.role, trx);
      });
      return { created: false, promotedEmail: email };
    }
    try {
      await this.createUser({ email, name: admin.name, password, role: 'admin' });
    } catch (error) {
      // Another instance created it at the same moment.
      if (error instanceof AppError && error.code === 'CONFLICT') return { created: false };
      throw error;
    }
    return { created: true, email, password: generated ? password : undefined };
  }
}

export type FirstAdminResult =
  | { created: false; promotedEmail?: string }
  | { created: true; email: string; /** Only when generated; print once. */ password: string | undefined };

/** A random password that satisfies the sign-up policy (complexity and strength). */
export function generatePassword(): string {
  for (;;) {
    const candidate = `${randomToken(12)}-Aa1!`;
    if (newPasswordSchema.safeParse(candidate).success) return candidate;
  }
}
