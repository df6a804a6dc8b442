import type { QueryClient } from '@tanstack/react-query';
import { billingKeys } from './keys';

/**
 * After a billing change: every billing view, and the client dashboard, whose badge says whether
 * the client is past due (its query key, `['client-dashboard', …]`, written out: features do not
 * import each other).
 */
export async function refreshBilling(queryClient: QueryClient): Promise<void> {
  await Promise.all([queryClient.invalidateQueries({ queryKey: billingKeys.all }), queryClient.invalidateQueries({ queryKey: ['client-dashboard'] })]);
}
