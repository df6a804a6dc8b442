/**
 * The dashboard's stat cards (spec part 1 §2.13) with their week-over-week change: the last 7 days
 * up to now against the 7 days before. What each figure counts: docs/admin-settings.md, "Admin
 * dashboard". A client user's figures are their own business's; Active Clients is staff's.
 */
import type { DashboardStats } from '../../../common/api/dashboard';
import type { Db } from '../../db/database';
import type { SessionUser } from '../../http/access';
import { scopeFor } from '../../http/scope';
import type { Clock } from '../../lib/clock';
import { DashboardRepository, type Windows } from './dashboard.repository';

export const WINDOW_DAYS = 7;
const DAY_MS = 86_400_000;

export interface DashboardPorts {
  /** Parley's own demo client (the widget module's), left out of Active Clients; null when there is none. */
  demoClientId(): Promise<string | null>;
}

export class DashboardService {
  readonly #repository: DashboardRepository;

  constructor(private readonly deps: { db: Db; clock: Clock; ports: DashboardPorts }) {
    this.#repository = new DashboardRepository(deps.db);
  }

  async stats(user: SessionUser): Promise<DashboardStats> {
    const until = this.deps.clock.now();
    const windows: Windows = {
      previousFrom: new Date(until.getTime() - 2 * WINDOW_DAYS * DAY_MS),
      currentFrom: new Date(until.getTime() - WINDOW_DAYS * DAY_MS),
      until,
    };
    const { clientId } = scopeFor(user);
    const staff = clientId === null;
    const [handled, tickets, responses, clients] = await Promise.all([
      this.#repository.handled(windows, clientId),
      this.#repository.tickets(windows, clientId),
      this.#repository.firstResponses(windows, clientId),
      staff ? this.deps.ports.demoClientId().then((demo) => this.#repository.activeClients(windows.currentFrom, demo)) : Promise.resolve(null),
    ]);
    return {
      current: { from: windows.currentFrom.toISOString(), to: until.toISOString() },
      previous: { from: windows.previousFrom.toISOString(), to: windows.currentFrom.toISOString() },
      conversationsHandled: handled,
      openTickets: { now: tickets.openNow, openedCurrent: tickets.openedCurrent, openedPrevious: tickets.openedPrevious },
      avgResponseTime: responses,
      activeClients: clients,
    };
  }
}
