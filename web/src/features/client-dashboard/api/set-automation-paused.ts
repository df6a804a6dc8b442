import { useMutation, useQueryClient } from '@tanstack/react-query';
import { clientView } from '@common/api/channels';
import { apiRequest } from '@/lib/api-client';
import { clientDashboardKeys, clientPath } from './keys';

/** Pause or resume a client's automation (its AI agent and event-triggered automations). */
export function setAutomationPaused({ clientId, paused }: { clientId: string; paused: boolean }) {
  return apiRequest(`${clientPath(clientId)}/automation`, clientView, { method: 'PUT', body: { paused } });
}

export function useSetAutomationPaused() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setAutomationPaused,
    onSettled: async () => {
      // Every view of the client shows the pause: the dashboard, the client list (shared key) and
      // the AI agent's screens.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: clientDashboardKeys.all }),
        queryClient.invalidateQueries({ queryKey: ['clients'] }),
        queryClient.invalidateQueries({ queryKey: ['agents'] }),
      ]);
    },
  });
}
