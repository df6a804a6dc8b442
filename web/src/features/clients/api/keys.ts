export const clientKeys = {
  all: ['clients'] as const,
  list: () => [...clientKeys.all, 'list'] as const,
  detail: (id: string) => [...clientKeys.all, 'detail', id] as const,
};

export const channelKeys = {
  all: ['channels'] as const,
  list: (clientId: string) => [...channelKeys.all, 'list', clientId] as const,
  deliveries: (channelId: string) => [...channelKeys.all, 'deliveries', channelId] as const,
};
