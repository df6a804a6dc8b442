import { describe, expect, it } from 'vitest';
import type { ClientView } from '@common/api/channels';
import { DEFAULT_CLIENT_QUERY, filterClients, isFiltered, summarizeClients } from './clients';

const client = (n: number, overrides: Partial<ClientView> = {}): ClientView => ({
  id: `00000000-0000-4000-8000-${n.toString().padStart(12, '0')}`,
  companyName: `Company ${n}`,
  contactPerson: null,
  email: null,
  phone: null,
  status: 'active',
  channelCount: 0,
  conversationCount: 0,
  userCount: 0,
  lastInteractionAt: null,
  automationPausedAt: null,
  automationPausedBy: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  ...overrides,
});

const clients = [
  client(1, { companyName: 'zeta bakery', contactPerson: 'Ana Lima', channelCount: 2, conversationCount: 5, lastInteractionAt: '2025-02-01T00:00:00.000Z' }),
  client(2, { companyName: 'Acme', status: 'inactive', email: 'ops@acme.test', conversationCount: 9 }),
  client(3, { companyName: 'Beta Dental', channelCount: 1, lastInteractionAt: '2025-03-01T00:00:00.000Z' }),
];
const names = (list: ClientView[]) => list.map((c) => c.companyName);

describe('filterClients', () => {
  it('sorts by name case-insensitively by default', () => {
    expect(names(filterClients(clients, DEFAULT_CLIENT_QUERY))).toEqual(['Acme', 'Beta Dental', 'zeta bakery']);
  });

  it('filters by the Active / Inactive tabs', () => {
    expect(names(filterClients(clients, { ...DEFAULT_CLIENT_QUERY, tab: 'inactive' }))).toEqual(['Acme']);
    expect(names(filterClients(clients, { ...DEFAULT_CLIENT_QUERY, tab: 'active' }))).toEqual(['Beta Dental', 'zeta bakery']);
  });

  it('searches company, contact person and e-mail without regard to case', () => {
    expect(names(filterClients(clients, { ...DEFAULT_CLIENT_QUERY, search: 'ANA' }))).toEqual(['zeta bakery']);
    expect(names(filterClients(clients, { ...DEFAULT_CLIENT_QUERY, search: 'acme.test' }))).toEqual(['Acme']);
    expect(filterClients(clients, { ...DEFAULT_CLIENT_QUERY, search: 'nobody' })).toEqual([]);
  });

  it('filters by connected channels and sorts by recency or conversations', () => {
    expect(names(filterClients(clients, { ...DEFAULT_CLIENT_QUERY, channels: 'none' }))).toEqual(['Acme']);
    expect(names(filterClients(clients, { ...DEFAULT_CLIENT_QUERY, sort: 'recent' }))).toEqual(['Beta Dental', 'zeta bakery', 'Acme']);
    expect(names(filterClients(clients, { ...DEFAULT_CLIENT_QUERY, sort: 'conversations' }))).toEqual(['Acme', 'zeta bakery', 'Beta Dental']);
  });
});

describe('summarizeClients', () => {
  it('counts clients by status and sums their conversations', () => {
    expect(summarizeClients(clients)).toEqual({ total: 3, active: 2, inactive: 1, conversations: 14 });
    expect(summarizeClients([])).toEqual({ total: 0, active: 0, inactive: 0, conversations: 0 });
  });
});

describe('isFiltered', () => {
  it('is true only when the Filter menu changed something', () => {
    expect(isFiltered(DEFAULT_CLIENT_QUERY)).toBe(false);
    expect(isFiltered({ ...DEFAULT_CLIENT_QUERY, search: 'x', tab: 'active' })).toBe(false);
    expect(isFiltered({ ...DEFAULT_CLIENT_QUERY, sort: 'recent' })).toBe(true);
  });
});
