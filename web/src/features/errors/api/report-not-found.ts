import type { NotFoundReport } from '@common/api/system';
import { apiSend } from '@/lib/api-client';

/** Adds a path the app could not route to the server's 404 log. Best effort: failures are ignored. */
export function reportNotFound(report: NotFoundReport): Promise<void> {
  return apiSend('/api/v1/telemetry/not-found', { method: 'POST', body: report }).catch(() => undefined);
}
