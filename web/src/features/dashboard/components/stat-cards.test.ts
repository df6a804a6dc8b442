import { describe, expect, it } from 'vitest';
import type { DashboardStats } from '@common/api/dashboard';
import { statsFor } from './stat-cards';

const windows = {
  current: { from: '2026-03-08T12:00:00.000Z', to: '2026-03-15T12:00:00.000Z' },
  previous: { from: '2026-03-01T12:00:00.000Z', to: '2026-03-08T12:00:00.000Z' },
};

describe('statsFor', () => {
  it("shows the admin's four cards, each with its week-over-week change", () => {
    const stats: DashboardStats = {
      ...windows,
      conversationsHandled: { current: 12, previous: 10 },
      openTickets: { now: 7, openedCurrent: 6, openedPrevious: 4 },
      avgResponseTime: { currentSeconds: 90, previousSeconds: 120, currentSample: 9, previousSample: 8 },
      activeClients: { now: 3, previous: 3 },
    };
    expect(statsFor(stats).map((s) => [s.label, s.value, s.changePrefix ?? null, s.change.text, s.change.sentiment])).toEqual([
      ['Conversations Handled', '12', null, '+20% vs the previous 7 days', 'good'],
      ['Open Tickets', '7', '6 opened in 7 days', '+50% vs the previous 7 days', 'neutral'],
      ['Avg Response Time', expect.any(String), null, '−25% vs the previous 7 days', 'good'],
      ['Active Clients', '3', null, 'No change vs the previous 7 days', 'neutral'],
    ]);
  });

  it('leaves Active Clients out for a client user and says when nothing was answered', () => {
    const stats: DashboardStats = {
      ...windows,
      conversationsHandled: { current: 0, previous: 2 },
      openTickets: { now: 1, openedCurrent: 1, openedPrevious: 0 },
      avgResponseTime: { currentSeconds: null, previousSeconds: 30, currentSample: 0, previousSample: 1 },
      activeClients: null,
    };
    const cards = statsFor(stats);
    expect(cards.map((s) => s.label)).toEqual(['Conversations Handled', 'Open Tickets', 'Avg Response Time']);
    expect(cards[2]).toMatchObject({ value: '—', note: 'No conversation got its first reply in the last 7 days' });
    expect(cards[0]!.change).toEqual({ text: '−100% vs the previous 7 days', direction: 'down', sentiment: 'bad' });
  });
});
