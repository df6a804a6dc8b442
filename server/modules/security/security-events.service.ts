import type { Db } from '../../db/database';
import type { SecurityEventInput, SecurityEventsRepository } from './security-events.repository';

/**
 * The security log (spec "security event"): what other modules record — sign-in lockouts,
 * password and role changes, refused access — and what the admin reads.
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
}
