export const n8nKeys = {
  all: ['n8n'] as const,
  connection: () => [...n8nKeys.all, 'connection'] as const,
  workflows: () => [...n8nKeys.all, 'workflows'] as const,
  payloadTemplate: () => [...n8nKeys.all, 'payload-template'] as const,
  /** Parley's n8n workflow records (the workflows module), to mark the ones already imported. */
  linked: () => [...n8nKeys.all, 'linked'] as const,
};
