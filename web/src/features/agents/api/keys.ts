export const agentKeys = {
  all: ['agents'] as const,
  list: () => [...agentKeys.all, 'list'] as const,
  detail: (clientId: string) => [...agentKeys.all, 'detail', clientId] as const,
  stats: (clientId: string, days: number) => [...agentKeys.all, 'stats', clientId, days] as const,
  knowledgeOf: (clientId: string) => [...agentKeys.all, 'knowledge', clientId] as const,
  knowledge: (clientId: string, search: string) => [...agentKeys.knowledgeOf(clientId), search] as const,
};

export const clientPath = (clientId: string) => `/api/v1/clients/${encodeURIComponent(clientId)}`;
