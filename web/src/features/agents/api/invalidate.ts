import type { QueryClient } from '@tanstack/react-query';
import { agentKeys } from './keys';

/**
 * After any change to a knowledge base: its lists, and the agent (whose training is now queued, so
 * its query starts polling until the new version is live).
 */
export function invalidateKnowledge(queryClient: QueryClient, clientId: string) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: agentKeys.knowledgeOf(clientId) }),
    queryClient.invalidateQueries({ queryKey: agentKeys.detail(clientId) }),
    queryClient.invalidateQueries({ queryKey: agentKeys.list() }),
  ]);
}
