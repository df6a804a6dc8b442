import { sql } from 'kysely';
import { type NotificationPreferences, readNotificationPreferences } from '../../../common/api/me';
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
  /** The user's client is deactivated (docs/client-dashboard.md): no sign-in, as for a disabled account. */
  clientInactive: boolean;
  role: Role;
  roleAssignedBy: string | null;
  roleAssignedAt: Date | null;
}

/** An enabled administrator as the readiness checks see one (UsersRepository.findAdmins). */
export interface AdminAccount {
  id: string;
  email: string;
  fullName: string;
  twoFactorEnabled: boolean;
  notificationPreferences: NotificationPreferences;
}

/** Someone who asked for an e-mailed report (UsersRepository.findReportRecipients). */
export interface ReportRecipient {
  id: string;
  email: string;
  fullName: string;
  role: Role;
  clientId: string | null;
}

/** Someone told about a conversation (UsersRepository.findRecipients). */
export interface Recipient {
  id: string;
  email: string;
  fullName: string;
  role: Role;
  /** As they read: switches the stored document lacks have their default. */
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
        sql<boolean>`exists (select 1 from clients ic where ic.id = users.client_id and ic.status = 'inactive')`.as('clientInactive'),
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
   * Who is told about a conversation: the staff (admins and managers, or only `staffRoles`) and,
   * with `clientId`, that client's own users; enabled accounts only, with their e-mail preferences.
   */
  async findRecipients(filter: { clientId?: string; staffRoles?: readonly Role[] }, db: Db = this.db): Promise<Recipient[]> {
    const rows = await db
      .selectFrom('users')
      .leftJoin('userRoles', 'userRoles.userId', 'users.id')
      .select(['users.id', 'users.email', 'users.fullName', 'users.notificationPreferences', sql<Role>`coalesce(user_roles.role, ${DEFAULT_ROLE})`.as('role')])
      .where('users.disabledAt', 'is', null)
      .where((eb) => {
        const staff = eb('userRoles.role', 'in', filter.staffRoles ?? ['admin', 'manager']);
        return filter.clientId === undefined ? staff : eb.or([staff, eb('users.clientId', '=', filter.clientId)]);
      })
      .execute();
    return rows.map((row) => ({ ...row, notificationPreferences: readNotificationPreferences(row.notificationPreferences) }));
  }

  /**
   * Whether the account may not sign in: disabled, or its client deactivated (false for no such
   * account).
   */
  async isDisabled(userId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('users')
      .select(['disabledAt', sql<boolean>`exists (select 1 from clients ic where ic.id = users.client_id and ic.status = 'inactive')`.as('clientInactive')])
      .where('id', '=', userId)
      .executeTakeFirst();
    return Boolean(row?.disabledAt) || row?.clientInactive === true;
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

  /** Users with their role, oldest first; `search` matches e-mail or name (case-insensitive, literally). */
  async findUsers(filter: { search?: string | undefined; role?: Role | undefined }, db: Db = this.db): Promise<UserWithRole[]> {
    let query = this.selectUsersWithRole(db).orderBy('users.createdAt', 'asc');
    if (filter.search) {
      const pattern = `%${filter.search.replace(/[\\%_]/gu, (c) => `\\${c}`)}%`;
      query = query.where((eb) => eb.or([eb('users.email', 'ilike', pattern), eb('users.fullName', 'ilike', pattern)]));
    }
    if (filter.role) query = query.where(sql<Role>`coalesce(user_roles.role, 'client')`, '=', filter.role);
    return query.execute();
  }

  async clientExists(clientId: string, db: Db = this.db): Promise<boolean> {
    const client = await db.selectFrom('clients').select('id').where('id', '=', clientId).executeTakeFirst();
    return client !== undefined;
  }

  /**
   * An active account whose e-mail counts as verified, with its password, role and role history
   * row; its id. Call inside a transaction.
   */
  async insertVerifiedUser(
    user: { email: string; fullName: string; clientId: string | null; passwordHash: string; role: Role; assignedBy: string | null },
    trx: Db,
  ): Promise<string> {
    const created = await trx
      .insertInto('users')
      .values({ email: user.email, fullName: user.fullName, emailVerified: true, clientId: user.clientId })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('accounts')
      .values({ userId: created.id, accountId: created.id, providerId: 'credential', password: user.passwordHash })
      .execute();
    await trx.insertInto('userRoles').values({ userId: created.id, role: user.role, assignedBy: user.assignedBy }).execute();
    await trx
      .insertInto('roleChanges')
      .values({ userId: created.id, oldRole: null, newRole: user.role, assignedBy: user.assignedBy })
      .execute();
    return created.id;
  }

  /** The id of the account with this id or e-mail, its row locked until `trx` ends. */
  async lockUserRow(filter: { id: string } | { email: string }, trx: Db): Promise<string | undefined> {
    const query = trx.selectFrom('users').select('id').forUpdate();
    const row = await ('id' in filter ? query.where('id', '=', filter.id) : query.where('email', '=', filter.email)).executeTakeFirst();
    return row?.id;
  }

  /** The account's client (and, with `verifyEmail`, its e-mail verified). Call inside a transaction. */
  async setClient(userId: string, clientId: string, verifyEmail: boolean, trx: Db): Promise<void> {
    await trx
      .updateTable('users')
      .set({ clientId, ...(verifyEmail ? { emailVerified: true } : {}), updatedAt: new Date() })
      .where('id', '=', userId)
      .execute();
  }

  /** Transaction-scoped advisory lock `key` (UsersService.ADMIN_ROLES_LOCK), held until `trx` ends. */
  async lockAdminRoles(key: number, trx: Db): Promise<void> {
    await sql`select pg_advisory_xact_lock(${key})`.execute(trx);
  }

  /** Active administrators other than `userId`. */
  async countActiveAdminsExcept(userId: string, db: Db = this.db): Promise<number> {
    const { count } = await db
      .selectFrom('userRoles')
      .innerJoin('users', 'users.id', 'userRoles.userId')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('userRoles.role', '=', 'admin')
      .where('users.disabledAt', 'is', null)
      .where('users.id', '!=', userId)
      .executeTakeFirstOrThrow();
    return Number(count);
  }

  /** Sets the user's role (given by `assignedBy` at `assignedAt`) and records the change. Call inside a transaction. */
  async setRole(change: { userId: string; oldRole: Role; newRole: Role; assignedBy: string; assignedAt: Date }, trx: Db): Promise<void> {
    const { userId, newRole: role, assignedBy, assignedAt } = change;
    await trx
      .insertInto('userRoles')
      .values({ userId, role, assignedBy, assignedAt })
      .onConflict((oc) => oc.column('userId').doUpdateSet({ role, assignedBy, assignedAt }))
      .execute();
    await trx.insertInto('roleChanges').values({ userId, oldRole: change.oldRole, newRole: role, assignedBy }).execute();
  }

  /** The enabled administrators with their two-factor state and notification preferences (the readiness checks). */
  async findAdmins(db: Db = this.db): Promise<AdminAccount[]> {
    const rows = await db
      .selectFrom('users')
      .innerJoin('userRoles', 'userRoles.userId', 'users.id')
      .select(['users.id', 'users.email', 'users.fullName', 'users.twoFactorEnabled', 'users.notificationPreferences'])
      .where('userRoles.role', '=', 'admin')
      .where('users.disabledAt', 'is', null)
      .orderBy('users.email')
      .execute();
    return rows.map((row) => ({ ...row, notificationPreferences: readNotificationPreferences(row.notificationPreferences) }));
  }

  /**
   * The enabled accounts whose notification preference `preference` is on (a report they asked
   * for), with their role and client, optionally only those of `roles`; oldest first.
   */
  async findReportRecipients(preference: 'dailyReports' | 'weeklyReports', roles?: readonly Role[], db: Db = this.db): Promise<ReportRecipient[]> {
    let query = db
      .selectFrom('users')
      .leftJoin('userRoles', 'userRoles.userId', 'users.id')
      .select(['users.id', 'users.email', 'users.fullName', 'users.clientId', sql<Role>`coalesce(user_roles.role, ${DEFAULT_ROLE})`.as('role')])
      .where('users.disabledAt', 'is', null)
      .where(sql<boolean>`(users.notification_preferences ->> ${preference}) = 'true'`);
    if (roles) query = query.where(sql<Role>`coalesce(user_roles.role, ${DEFAULT_ROLE})`, 'in', roles);
    return query.orderBy('users.createdAt').orderBy('users.id').execute();
  }

  async adminExists(db: Db = this.db): Promise<boolean> {
    const row = await db.selectFrom('userRoles').select('userId').where('role', '=', 'admin').limit(1).executeTakeFirst();
    return row !== undefined;
  }

  /** Makes an existing account an administrator (by nobody: the system) and records the change. Call inside a transaction. */
  async promoteToAdmin(userId: string, oldRole: Role, trx: Db): Promise<void> {
    await trx
      .insertInto('userRoles')
      .values({ userId, role: 'admin' })
      .onConflict((oc) => oc.column('userId').doUpdateSet({ role: 'admin', assignedBy: null, assignedAt: new Date() }))
      .execute();
    await trx.insertInto('roleChanges').values({ userId, oldRole, newRole: 'admin' }).execute();
  }
}
