export const automationKeys = {
  all: ['automations'] as const,
  list: () => [...automationKeys.all, 'list'] as const,
  executions: (id: string) => [...automationKeys.all, 'executions', id] as const,
  messages: (id: string) => [...automationKeys.all, 'messages', id] as const,
};
