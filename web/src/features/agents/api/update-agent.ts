import { useMutation, useQueryClient } from '@tanstack/react-query';
import { agentView, type UpdateAgentInput } from '@common/api/agents';
import { apiRequest } from '@/lib/api-client';
import { agentKeys, clientPath } from './keys';

export function updateAgent({ clientId, changes }: { clientId: string; changes: UpdateAgentInput }) {
  return apiRequest(`${clientPath(clientId)}/agent`, agentView, { method: 'PUT', body: changes });
}

export function useUpdateAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAgent,
    retry: false,
    onSuccess: (agent) => queryClient.setQueryData(agentKeys.detail(agent.clientId), agent),
    onSettled: () => queryClient.invalidateQueries({ queryKey: agentKeys.list() }),
  });
}
