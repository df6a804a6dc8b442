/** The Clients tab's columns and their order: click a header to sort by it, again to reverse. */
import type { ClientInsights } from '@common/api/insights';

export const CLIENT_SORT_KEYS = [
  'name',
  'status',
  'conversations',
  'messages',
  'automatedResolutionRate',
  'handoffRate',
  'medianFirstResponseSeconds',
  'medianResolutionSeconds',
  'satisfaction',
] as const;
export type ClientSortKey = (typeof CLIENT_SORT_KEYS)[number];
export type SortDirection = 'ascending' | 'descending';
export interface ClientSort {
  key: ClientSortKey;
  direction: SortDirection;
}

/** The server's order: most conversations first. */
export const DEFAULT_CLIENT_SORT: ClientSort = { key: 'conversations', direction: 'descending' };

function sortValue(client: ClientInsights, key: ClientSortKey): string | number | null {
  switch (key) {
    case 'name':
      return client.name;
    case 'status':
      return client.status;
    case 'conversations':
      return client.totals.conversations;
    case 'messages':
      return client.totals.messages;
    case 'automatedResolutionRate':
      return client.automatedResolutionRate;
    case 'handoffRate':
      return client.handoffRate;
    case 'medianFirstResponseSeconds':
      return client.medianFirstResponseSeconds;
    case 'medianResolutionSeconds':
      return client.medianResolutionSeconds;
    case 'satisfaction':
      return client.satisfaction;
  }
}

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/** Sorted by `sort`; figures nobody could measure (null) stay last either way, ties by name. */
export function sortClients(clients: readonly ClientInsights[], sort: ClientSort): ClientInsights[] {
  const sign = sort.direction === 'ascending' ? 1 : -1;
  return [...clients].sort((a, b) => {
    const x = sortValue(a, sort.key);
    const y = sortValue(b, sort.key);
    if (x === null || y === null) {
      if (x !== y) return x === null ? 1 : -1;
    } else {
      const order = typeof x === 'string' || typeof y === 'string' ? collator.compare(String(x), String(y)) : x - y;
      if (order !== 0) return order * sign;
    }
    return collator.compare(a.name, b.name);
  });
}

/** Clicking a header: the same column flips its direction; another starts with the natural one (names A–Z, figures highest first). */
export function nextSort(current: ClientSort, key: ClientSortKey): ClientSort {
  if (current.key === key) return { key, direction: current.direction === 'ascending' ? 'descending' : 'ascending' };
  return { key, direction: key === 'name' || key === 'status' ? 'ascending' : 'descending' };
}
