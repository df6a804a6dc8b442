/**
 * Reports the web app sends (server: server/modules/system).
 *
 *   POST /api/v1/telemetry/not-found          notFoundReport -> 204          (public)
 *          A path the app could not route after a client-side navigation (a full page load of an
 *          unknown path is already logged by the server's not-found handler).
 *   POST /api/v1/telemetry/permission-denied  permissionDeniedReport -> 204  (signed-in)
 *          A signed-in user opened a screen their role may not use (spec part 1 §6: "the attempt is
 *          logged (user id, role, URL, time)"); the server adds the user, role and time.
 *   GET  /api/v1/health                       healthReport -> 200 | 503      (public)
 *          What a load balancer polls: 503 when a check fails (`failing` names it); the
 *          expensive parts are cached for about a second. README, "Health checks".
 */
import { z } from 'zod';
import { role } from './users';

const pagePath = z.string().min(1).max(2048);

export const notFoundReport = z.object({ path: pagePath });
export type NotFoundReport = z.infer<typeof notFoundReport>;

export const permissionDeniedReport = z.object({ path: pagePath, requiredRole: role });
export type PermissionDeniedReport = z.infer<typeof permissionDeniedReport>;

export const healthCheckName = z.enum(['database', 'disk', 'jobs']);

export const healthReport = z.object({
  /** ok: every check passes; degraded: jobs are late but this instance serves (200); failing: 503. */
  status: z.enum(['ok', 'degraded', 'failing']),
  engine: z.enum(['pglite', 'postgres']),
  version: z.string(),
  /** The checks that made the status what it is (empty when ok). */
  failing: z.array(healthCheckName),
  checks: z.object({
    /** A real write (an upsert of a heartbeat row), bounded by a short timeout. */
    database: z.object({
      ok: z.boolean(),
      writeMs: z.number().nullable(),
      error: z.enum(['timeout', 'read_only', 'disk_full', 'unavailable']).optional(),
    }),
    /** Jobs due now (queued and due, or whose worker's lease ran out), and how long the oldest has waited. */
    jobs: z.object({ ok: z.boolean(), due: z.number().int().nullable(), oldestDueSeconds: z.number().nullable() }),
    /** Free space where the embedded database lives (null on PostgreSQL: the server's disk is not ours to see). */
    disk: z.object({ ok: z.boolean(), freeBytes: z.number().nullable(), freePercent: z.number().nullable() }).nullable(),
  }),
  checkedAt: z.iso.datetime(),
});
export type HealthReport = z.infer<typeof healthReport>;
