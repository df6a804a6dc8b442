/** Searching, filtering, sorting and summing the client list (spec part 1 §2.14). */
import type { ClientView } from '@common/api/channels';

export type ClientTab = 'all' | 'active' | 'inactive';
export type ChannelFilter = 'any' | 'connected' | 'none';
export type ClientSort = 'name' | 'recent' | 'conversations';

export interface ClientQuery {
  search: string;
  tab: ClientTab;
  channels: ChannelFilter;
  sort: ClientSort;
}

export const DEFAULT_CLIENT_QUERY: ClientQuery = { search: '', tab: 'all', channels: 'any', sort: 'name' };

/** Case-insensitive on company, contact person, e-mail and phone. */
export function matchesSearch(client: ClientView, search: string): boolean {
  const q = search.trim().toLowerCase();
  if (q === '') return true;
  return [client.companyName, client.contactPerson, client.email, client.phone].some((field) => field?.toLowerCase().includes(q));
}

const byName = (a: ClientView, b: ClientView) => a.companyName.localeCompare(b.companyName, undefined, { sensitivity: 'base' });

export function filterClients(clients: readonly ClientView[], query: ClientQuery): ClientView[] {
  const result = clients.filter(
    (client) =>
      (query.tab === 'all' || client.status === query.tab) &&
      (query.channels === 'any' || (query.channels === 'connected' ? client.channelCount > 0 : client.channelCount === 0)) &&
      matchesSearch(client, query.search),
  );
  switch (query.sort) {
    case 'name':
      return result.sort(byName);
    case 'recent':
      // Never-contacted clients last.
      return result.sort((a, b) => (b.lastInteractionAt ?? '').localeCompare(a.lastInteractionAt ?? '') || byName(a, b));
    case 'conversations':
      return result.sort((a, b) => b.conversationCount - a.conversationCount || byName(a, b));
  }
}

export interface ClientSummary {
  total: number;
  active: number;
  inactive: number;
  conversations: number;
}

export function summarizeClients(clients: readonly ClientView[]): ClientSummary {
  return {
    total: clients.length,
    active: clients.filter((c) => c.status === 'active').length,
    inactive: clients.filter((c) => c.status === 'inactive').length,
    conversations: clients.reduce((sum, c) => sum + c.conversationCount, 0),
  };
}

/** Whether the Filter menu narrows or reorders the list (its button shows it). */
export function isFiltered(query: ClientQuery): boolean {
  return query.channels !== DEFAULT_CLIENT_QUERY.channels || query.sort !== DEFAULT_CLIENT_QUERY.sort;
}
