import { useMutation } from '@tanstack/react-query';
import { tryAgentResult } from '@common/api/agents';
import { apiRequest } from '@/lib/api-client';
import { clientPath } from './keys';

/** Asks the agent as a customer would, with its saved configuration and live knowledge; nothing is sent to anyone. */
export function tryAgent({ clientId, message }: { clientId: string; message: string }) {
  return apiRequest(`${clientPath(clientId)}/agent/try`, tryAgentResult, { method: 'POST', body: { message } });
}

export function useTryAgent() {
  return useMutation({ mutationFn: tryAgent, retry: false });
}
