/**
 * Reports the web app sends (server: server/modules/system).
 *
 *   POST /api/v1/telemetry/not-found          notFoundReport -> 204          (public)
 *          A path the app could not route after a client-side navigation (a full page load of an
 *          unknown path is already logged by the server's not-found handler).
 *   POST /api/v1/telemetry/permission-denied  permissionDeniedReport -> 204  (signed-in)
 *          A signed-in user opened a screen their role may not use (spec part 1 §6: "the attempt is
 *          logged (user id, role, URL, time)"); the server adds the user, role and time.
 */
import { z } from 'zod';
import { role } from './users';

const pagePath = z.string().min(1).max(2048);

export const notFoundReport = z.object({ path: pagePath });
export type NotFoundReport = z.infer<typeof notFoundReport>;

export const permissionDeniedReport = z.object({ path: pagePath, requiredRole: role });
export type PermissionDeniedReport = z.infer<typeof permissionDeniedReport>;
