export const clientDashboardKeys = {
  all: ['client-dashboard'] as const,
  detail: (clientId: string) => [...clientDashboardKeys.all, clientId] as const,
};

export const clientPath = (clientId: string) => `/api/v1/clients/${encodeURIComponent(clientId)}`;
