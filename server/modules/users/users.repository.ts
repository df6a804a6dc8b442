import { sql } from 'kysely';
import type { NotificationPreferences } from '../../../common/api/me';
import type { CurrentUser } from '../../../common/api/users';
import { DEFAULT_ROLE, type Role } from '../../../common/roles';
import type { Db } from '../../db/database';
import { notFound } from '../../lib/errors';

export interface UserWithRole {
  id: string;
  email: string;
  fullName: string;
  avatarUrl: string | null;
  phone: string | null;
  company: string | null;
  clientId: string | null;
  emailVerified: boolean;
  twoFactorEnabled: boolean;
  createdAt: Date;
  lastLoginAt: Date | null;
  disabledAt: Date | null;
  role: Role;
  roleAssignedBy: string | null;
  roleAssignedAt: Date | null;
}

/** Someone told about a conversation (UsersRepository.findRecipients). */
export interface Recipient {
  id: string;
  email: string;
  fullName: string;
  notificationPreferences: NotificationPreferences;
}

export function toCurrentUser(u: UserWithRole): CurrentUser {
  return {
    id: u.id,
    email: u.email,
    name: u.fullName,
    role: u.role,
    avatarUrl: u.avatarUrl,
    phone: u.phone,
    company: u.company,
    clientId: u.clientId,
    emailVerified: u.emailVerified,
    mfaEnabled: u.twoFactorEnabled,
    createdAt: u.createdAt.toISOString(),
    lastLogin: u.lastLoginAt ? u.lastLoginAt.toISOString() : null,
  };
}

export class UsersRepository {
  constructor(private readonly db: Db) {}

  /** Users joined with their role; a user without a role row reads as the default role. */
  selectUsersWithRole(db: Db = this.db) {
    return db
      .selectFrom('users')
      .leftJoin('userRoles', 'userRoles.userId', 'users.id')
      .select([
        'users.id',
        'users.email',
        'users.fullName',
        'users.avatarUrl',
        'users.phone',
        'users.company',
        'users.clientId',
        'users.emailVerified',
        'users.twoFactorEnabled',
        'users.createdAt',
        'users.lastLoginAt',
        'users.disabledAt',
        sql<Role>`coalesce(user_roles.role, ${DEFAULT_ROLE})`.as('role'),
        'userRoles.assignedBy as roleAssignedBy',
        'userRoles.assignedAt as roleAssignedAt',
      ]);
  }

  async findUserById(id: string, db: Db = this.db): Promise<UserWithRole | undefined> {
    return this.selectUsersWithRole(db).where('users.id', '=', id).executeTakeFirst();
  }

  async getUserById(id: string, db: Db = this.db): Promise<UserWithRole> {
    const user = await this.findUserById(id, db);
    if (!user) throw notFound('User');
    return user;
  }

  async findUserByEmail(email: string): Promise<UserWithRole | undefined> {
    return this.selectUsersWithRole().where('users.email', '=', email).executeTakeFirst();
  }

  async touchLastLogin(userId: string, at: Date): Promise<void> {
    await this.db.updateTable('users').set({ lastLoginAt: at }).where('id', '=', userId).execute();
  }

  /**
   * A self-service account (sign-up): unverified, with its password and the default role, in one
   * transaction. Nothing is written when the e-mail (or the id) is taken; false then.
   */
  async createPasswordUser(user: { id: string; email: string; name: string; passwordHash: string }): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const created = await trx
        .insertInto('users')
        .values({ id: user.id, email: user.email, fullName: user.name, emailVerified: false })
        .onConflict((oc) => oc.doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!created) return false;
      await trx.insertInto('accounts').values({ userId: user.id, accountId: user.id, providerId: 'credential', password: user.passwordHash }).execute();
      await trx.insertInto('userRoles').values({ userId: user.id, role: DEFAULT_ROLE }).execute();
      await trx.insertInto('roleChanges').values({ userId: user.id, oldRole: null, newRole: DEFAULT_ROLE }).execute();
      return true;
    });
  }

  /**
   * Who is told about a conversation: the staff (admins and managers) and, with `clientId`, that
   * client's own users; enabled accounts only, with their e-mail preferences.
   */
  async findRecipients(filter: { clientId?: string }, db: Db = this.db): Promise<Recipient[]> {
    return db
      .selectFrom('users')
      .leftJoin('userRoles', 'userRoles.userId', 'users.id')
      .select(['users.id', 'users.email', 'users.fullName', 'users.notificationPreferences'])
      .where('users.disabledAt', 'is', null)
      .where((eb) => {
        const staff = eb('userRoles.role', 'in', ['admin', 'manager']);
        return filter.clientId === undefined ? staff : eb.or([staff, eb('users.clientId', '=', filter.clientId)]);
      })
      .execute();
  }

  /** Whether the account is disabled (false for no such account). */
  async isDisabled(userId: string): Promise<boolean> {
    const row = await this.db.selectFrom('users').select('disabledAt').where('id', '=', userId).executeTakeFirst();
    return Boolean(row?.disabledAt);
  }

  /** The spec's fallback role for a new account, once (and its history row when it was given). */
  async assignDefaultRole(userId: string): Promise<void> {
    await this.db
      .insertInto('userRoles')
      .values({ userId, role: DEFAULT_ROLE })
      .onConflict((oc) => oc.column('userId').doNothing())
      .execute();
    await this.db.insertInto('roleChanges').values({ userId, oldRole: null, newRole: DEFAULT_ROLE }).execute();
  }

  async touchLastSeen(userId: string, at: Date): Promise<void> {
    await this.db.updateTable('users').set({ lastSeenAt: at }).where('id', '=', userId).execute();
  }
}
