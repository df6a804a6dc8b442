import { useMutation, useQueryClient } from '@tanstack/react-query';
import { automationSettingsView, type UpdateAgentSettingsInput } from '@common/api/client-dashboard';
import { apiRequest } from '@/lib/api-client';
import { clientDashboardKeys, clientPath } from './keys';

/** Auto-response (the AI agent on or off), its business hours and what happens outside them. */
export function updateAgentSettings({ clientId, ...changes }: UpdateAgentSettingsInput & { clientId: string }) {
  return apiRequest(`${clientPath(clientId)}/agent-settings`, automationSettingsView, { method: 'PATCH', body: changes });
}

export function useUpdateAgentSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAgentSettings,
    onSettled: async () => {
      await Promise.all([queryClient.invalidateQueries({ queryKey: clientDashboardKeys.all }), queryClient.invalidateQueries({ queryKey: ['agents'] })]);
    },
  });
}
