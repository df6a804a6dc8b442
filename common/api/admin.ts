/**
 * Admin-only operations (server: server/modules/users, server/modules/email).
 *
 *   GET   /api/v1/users                 findUsersQuery -> findUsersResponse
 *   POST  /api/v1/users                 createUserInput -> userSummary (201; active and verified)
 *   PATCH /api/v1/users/:id/role        updateRoleInput -> userSummary
 *          403 FORBIDDEN   (not an admin: refused by the route's access list)
 *          400 BAD_REQUEST details.reason "own_role"   "You cannot modify your own role."
 *          409 CONFLICT    details.reason "last_admin" "Cannot remove the last administrator from the system."
 *   GET   /api/v1/admin/outbox          -> outboxResponse
 *   GET   /api/v1/admin/outbox/:id      -> outboxEmail
 */
import { z } from 'zod';

const isoDate = z.iso.datetime({ offset: true });

export const outboxEmailSummary = z.object({
  id: z.uuid(),
  kind: z.string(),
  to: z.string(),
  subject: z.string(),
  status: z.enum(['queued', 'sent', 'stored', 'failed']),
  transport: z.enum(['smtp', 'outbox']).nullable(),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: isoDate,
  sentAt: isoDate.nullable(),
});
export const outboxEmail = outboxEmailSummary.extend({ textBody: z.string(), htmlBody: z.string().nullable() });
export const outboxResponse = z.object({ emails: z.array(outboxEmailSummary) });
export type OutboxEmailSummary = z.infer<typeof outboxEmailSummary>;
export type OutboxEmail = z.infer<typeof outboxEmail>;
