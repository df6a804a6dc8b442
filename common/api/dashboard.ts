/**
 * The dashboard's four stat cards (spec part 1 §2.13; server: server/modules/dashboard), each with
 * its week-over-week change: the last 7 days (`current`, up to the request) against the 7 days
 * before (`previous`). Definitions: docs/admin-settings.md, "Admin dashboard".
 *
 *   GET /api/v1/dashboard/stats -> dashboardStats (signed-in; a client user's figures are their
 *                                  own business's, and Active Clients is null for them)
 */
import { z } from 'zod';

const isoDate = z.iso.datetime({ offset: true });
const count = z.number().int().min(0);

/** A half-open window [from, to). */
export const statsWindow = z.object({ from: isoDate, to: isoDate });

export const dashboardStats = z.object({
  current: statsWindow,
  previous: statsWindow,
  /** Conversations that got at least one reply (from the AI agent or a person) in each window. */
  conversationsHandled: z.object({ current: count, previous: count }),
  /** Open now (active, pending or escalated), and conversations started in each window. */
  openTickets: z.object({ now: count, openedCurrent: count, openedPrevious: count }),
  /**
   * Mean first-response time, in seconds, of the conversations first answered in each window
   * (first reply − first customer message); null when none was; `*Sample`: how many.
   */
  avgResponseTime: z.object({
    currentSeconds: z.number().min(0).nullable(),
    previousSeconds: z.number().min(0).nullable(),
    currentSample: count,
    previousSample: count,
  }),
  /**
   * Clients whose status is active now, Parley's own demo business left out; `previous`: those of
   * them that already existed when the previous window ended. Null for client users.
   */
  activeClients: z.object({ now: count, previous: count }).nullable(),
});
export type DashboardStats = z.infer<typeof dashboardStats>;

/** The change from `previous` to `current` in whole percent; null when there is nothing to compare with. */
export function percentChange(current: number | null, previous: number | null): number | null {
  if (current === null || previous === null || previous === 0) return null;
  return Math.round(((current - previous) / previous) * 100);
}
