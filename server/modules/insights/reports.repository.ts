/**
 * The SQL of the reports and of the AI Summary's share links: the module's `summary_shares` table
 * (migration 0031) and, read only, a client's name (`clients`) and a share creator's name, role
 * and client (`users`, `user_roles`) — docs/ARCHITECTURE.md, One owner per table.
 */
import { sql } from 'kysely';
import { DEFAULT_ROLE, type Role } from '../../../common/roles';
import type { InsightsPeriodKind } from '../../../common/api/insights';
import type { Db } from '../../db/database';

/** A share link as stored, with its creator's and client's names. */
export interface ShareRow {
  id: string;
  createdBy: string;
  creatorName: string;
  clientId: string | null;
  clientName: string | null;
  periodKind: InsightsPeriodKind;
  periodFrom: Date;
  periodTo: Date;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
}

export interface NewShare {
  tokenHash: string;
  createdBy: string;
  clientId: string | null;
  periodKind: InsightsPeriodKind;
  periodFrom: Date;
  periodTo: Date;
  createdAt: Date;
  expiresAt: Date;
}

const date = (value: unknown): Date => (value instanceof Date ? value : new Date(String(value)));
const dateOrNull = (value: unknown): Date | null => (value === null || value === undefined ? null : date(value));

export class ReportsRepository {
  constructor(private readonly db: Db) {}

  /** The client's name, or undefined when no client has that id. */
  async clientName(clientId: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('clients').select('companyName').where('id', '=', clientId).executeTakeFirst();
    return row?.companyName;
  }

  async insertShare(share: NewShare): Promise<ShareRow> {
    const { id } = await this.db.insertInto('summaryShares').values(share).returning('id').executeTakeFirstOrThrow();
    return (await this.findShare(id))!;
  }

  async findShare(id: string): Promise<ShareRow | undefined> {
    const row = await this.#shares().where('s.id', '=', id).executeTakeFirst();
    return row && shareOf(row);
  }

  /** The newest share links first: one creator's, or (null) everyone's. */
  async listShares(createdBy: string | null, limit: number): Promise<ShareRow[]> {
    let query = this.#shares();
    if (createdBy !== null) query = query.where('s.createdBy', '=', createdBy);
    const rows = await query.orderBy('s.createdAt', 'desc').orderBy('s.id', 'desc').limit(limit).execute();
    return rows.map(shareOf);
  }

  /** Marks the link revoked (keeping the first revocation's time) and answers it. */
  async revokeShare(id: string, at: Date): Promise<ShareRow | undefined> {
    await this.db
      .updateTable('summaryShares')
      .set({ revokedAt: sql<Date>`coalesce(revoked_at, ${at})` })
      .where('id', '=', id)
      .execute();
    return this.findShare(id);
  }

  /**
   * The link with this token hash while it may be opened: not revoked, not expired at `now`, and
   * its creator may still read what it shows — an account that is not disabled, with a staff role,
   * or a client user of the link's client (a link made by a client user whose role or client has
   * changed since stops working).
   */
  async findOpenShare(tokenHash: string, now: Date): Promise<ShareRow | undefined> {
    const row = await this.#shares()
      .leftJoin('userRoles as r', 'r.userId', 'u.id')
      .where('s.tokenHash', '=', tokenHash)
      .where('s.revokedAt', 'is', null)
      .where('s.expiresAt', '>', now)
      .where('u.disabledAt', 'is', null)
      .where((eb) =>
        eb.or([
          eb(sql<Role>`coalesce(r.role, ${DEFAULT_ROLE})`, 'in', ['admin', 'manager']),
          eb.and([eb('s.clientId', 'is not', null), eb('u.clientId', '=', eb.ref('s.clientId'))]),
        ]),
      )
      .executeTakeFirst();
    return row && shareOf(row);
  }

  #shares() {
    return this.db
      .selectFrom('summaryShares as s')
      .innerJoin('users as u', 'u.id', 's.createdBy')
      .leftJoin('clients as c', 'c.id', 's.clientId')
      .select([
        's.id',
        's.createdBy',
        'u.fullName as creatorName',
        's.clientId',
        'c.companyName as clientName',
        's.periodKind',
        's.periodFrom',
        's.periodTo',
        's.createdAt',
        's.expiresAt',
        's.revokedAt',
      ]);
  }
}

function shareOf(row: {
  id: string;
  createdBy: string;
  creatorName: string;
  clientId: string | null;
  clientName: string | null;
  periodKind: InsightsPeriodKind;
  periodFrom: unknown;
  periodTo: unknown;
  createdAt: unknown;
  expiresAt: unknown;
  revokedAt: unknown;
}): ShareRow {
  return {
    id: row.id,
    createdBy: row.createdBy,
    creatorName: row.creatorName,
    clientId: row.clientId,
    clientName: row.clientName,
    periodKind: row.periodKind,
    periodFrom: date(row.periodFrom),
    periodTo: date(row.periodTo),
    createdAt: date(row.createdAt),
    expiresAt: date(row.expiresAt),
    revokedAt: dateOrNull(row.revokedAt),
  };
}
