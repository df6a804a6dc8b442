import type { InsightsQuery } from '@common/api/insights';

export const insightsKeys = {
  all: ['insights'] as const,
  views: () => [...insightsKeys.all, 'view'] as const,
  view: (query: InsightsQuery) => [...insightsKeys.views(), query] as const,
};
