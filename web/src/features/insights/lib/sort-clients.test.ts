import { describe, expect, it } from 'vitest';
import type { ClientInsights } from '@common/api/insights';
import { DEFAULT_CLIENT_SORT, nextSort, sortClients } from './sort-clients';

function client(name: string, conversations: number, firstResponse: number | null): ClientInsights {
  return {
    clientId: `00000000-0000-4000-8000-${String(conversations).padStart(12, '0')}`,
    name,
    status: 'active',
    totals: { conversations, messages: conversations * 3, answered: 0, resolved: 0, automated: 0, handedOff: 0, reopened: 0, ratings: 0, satisfied: 0 },
    medianFirstResponseSeconds: firstResponse,
    medianResolutionSeconds: null,
    automatedResolutionRate: null,
    handoffRate: null,
    satisfaction: null,
  };
}

const clients = [client('Bakery', 2, 30), client('apex', 5, null), client('Cafe', 1, 10)];
const names = (list: ClientInsights[]) => list.map((c) => c.name);

describe('sortClients', () => {
  it('starts with the most conversations first', () => {
    expect(names(sortClients(clients, DEFAULT_CLIENT_SORT))).toEqual(['apex', 'Bakery', 'Cafe']);
  });

  it('sorts names without regard to case, and reverses on a second click', () => {
    const byName = nextSort(DEFAULT_CLIENT_SORT, 'name');
    expect(byName).toEqual({ key: 'name', direction: 'ascending' });
    expect(names(sortClients(clients, byName))).toEqual(['apex', 'Bakery', 'Cafe']);
    expect(names(sortClients(clients, nextSort(byName, 'name')))).toEqual(['Cafe', 'Bakery', 'apex']);
  });

  it('keeps figures nobody could measure last in either direction', () => {
    const slowest = nextSort(DEFAULT_CLIENT_SORT, 'medianFirstResponseSeconds');
    expect(names(sortClients(clients, slowest))).toEqual(['Bakery', 'Cafe', 'apex']);
    expect(names(sortClients(clients, nextSort(slowest, 'medianFirstResponseSeconds')))).toEqual(['Cafe', 'Bakery', 'apex']);
  });
});
