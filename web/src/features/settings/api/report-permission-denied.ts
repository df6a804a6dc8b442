import type { PermissionDeniedReport } from '@common/api/system';
import { apiSend } from '@/lib/api-client';

/** Spec part 1 §6: a refused attempt at an admin feature is logged. Best effort. */
export function reportPermissionDenied(report: PermissionDeniedReport): Promise<void> {
  return apiSend('/api/v1/telemetry/permission-denied', { method: 'POST', body: report }).catch(() => undefined);
}
