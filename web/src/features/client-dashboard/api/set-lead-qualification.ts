import { useMutation, useQueryClient } from '@tanstack/react-query';
import { automationSettingsView } from '@common/api/client-dashboard';
import { apiRequest } from '@/lib/api-client';
import { clientDashboardKeys, clientPath } from './keys';

/** Lead qualification on or off: whether customers' messages can make conversations leads. */
export function setLeadQualification({ clientId, enabled }: { clientId: string; enabled: boolean }) {
  return apiRequest(`${clientPath(clientId)}/lead-qualification`, automationSettingsView, { method: 'PUT', body: { enabled } });
}

export function useSetLeadQualification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setLeadQualification,
    onSettled: () => queryClient.invalidateQueries({ queryKey: clientDashboardKeys.all }),
  });
}
