export const readinessKeys = {
  all: ['readiness'] as const,
  view: () => [...readinessKeys.all, 'view'] as const,
};
