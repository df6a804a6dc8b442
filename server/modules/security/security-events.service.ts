import { z } from 'zod';
import {
  SECURITY_CSV_MAX_ROWS,
  securityEventLabel,
  type SecurityEventsExportQuery,
  type SecurityEventsQuery,
  type SecurityEventView,
} from '../../../common/api/security';
import type { Db } from '../../db/database';
import { toCsv } from '../../lib/csv';
import { AppError } from '../../lib/errors';
import type { SecurityEventFilter, SecurityEventInput, SecurityEventRow, SecurityEventsRepository } from './security-events.repository';

// Microseconds since 1970, at most 17 digits (year 5138): always a valid time for PostgreSQL.
const cursorSchema = z.object({ k: z.string().regex(/^\d{1,17}$/u), id: z.uuid() });

function encodeCursor(row: SecurityEventRow): string {
  return Buffer.from(JSON.stringify({ k: row.key, id: row.id })).toString('base64url');
}

function decodeCursor(cursor: string): { key: string; id: string } {
  try {
    const parsed = cursorSchema.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
    return { key: parsed.k, id: parsed.id };
  } catch (error) {
    throw new AppError('VALIDATION_ERROR', 'Invalid cursor', { fields: { cursor: 'Invalid cursor' }, cause: error });
  }
}

function toView(row: SecurityEventRow): SecurityEventView {
  return {
    id: row.id,
    type: row.type,
    severity: row.severity,
    userId: row.userId,
    userName: row.userName,
    email: row.email ?? row.userEmail,
    ipAddress: row.ipAddress,
    userAgent: row.userAgent,
    details: row.details,
    createdAt: row.createdAt.toISOString(),
  };
}

function filterOf(query: SecurityEventsExportQuery): Omit<SecurityEventFilter, 'limit'> {
  return {
    type: query.type || undefined,
    userId: query.userId,
    user: query.user || undefined,
    from: query.from ? new Date(query.from) : undefined,
    to: query.to ? new Date(query.to) : undefined,
  };
}

/**
 * The security log (spec "security event"): what other modules record — sign-in lockouts,
 * password and role changes, refused access, revoked sessions, changed settings — and the
 * administrators' audit log over it (Admin Settings → Security).
 */
export class SecurityEventsService {
  constructor(private readonly repository: SecurityEventsRepository) {}

  /** Records one event; inside the caller's transaction when `db` is one. */
  async record(event: SecurityEventInput, db?: Db): Promise<void> {
    await this.repository.record(event, db);
  }

  async findRecent(limit?: number) {
    return this.repository.findRecent(limit);
  }

  /** One page of the audit log, newest first. */
  async findEvents(query: SecurityEventsQuery): Promise<{ events: SecurityEventView[]; nextCursor: string | null }> {
    const after = query.cursor ? decodeCursor(query.cursor) : null;
    const rows = await this.repository.findEvents({ ...filterOf(query), after, limit: query.limit + 1 });
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return { events: page.map(toView), nextCursor: rows.length > query.limit && last ? encodeCursor(last) : null };
  }

  /** The filtered log as CSV, newest first, at most SECURITY_CSV_MAX_ROWS rows. */
  async exportCsv(query: SecurityEventsExportQuery, now: Date): Promise<{ filename: string; csv: string }> {
    const rows = await this.repository.findEvents({ ...filterOf(query), limit: SECURITY_CSV_MAX_ROWS });
    const csv = toCsv([
      ['Time (UTC)', 'Event', 'Type', 'Severity', 'User', 'E-mail', 'IP address', 'User agent', 'Details'],
      ...rows.map((row) => {
        const view = toView(row);
        return [view.createdAt, securityEventLabel(view.type), view.type, view.severity, view.userName, view.email, view.ipAddress, view.userAgent, JSON.stringify(view.details)];
      }),
    ]);
    return { filename: `security-events-${now.toISOString().slice(0, 10)}.csv`, csv };
  }
}
