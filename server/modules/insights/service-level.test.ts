/** computeServiceLevel: a conversation's figures from its facts (docs/insights.md, "What each figure means"). */
import { describe, expect, it } from 'vitest';
import { computeServiceLevel, dayChanges, dayShare, type ServiceLevelFacts, usableHours } from './service-level';

const at = (iso: string) => new Date(iso);

function facts(overrides: Partial<ServiceLevelFacts> = {}): ServiceLevelFacts {
  return {
    conversationId: '00000000-0000-4000-8000-000000000001',
    clientId: '00000000-0000-4000-8000-000000000002',
    channelKind: 'webchat',
    createdAt: at('2026-03-02T09:00:00Z'),
    updatedAt: at('2026-03-02T12:00:00Z'),
    status: 'active',
    handledBy: 'ai',
    escalated: false,
    businessHours: null,
    firstInboundAt: at('2026-03-02T09:00:00Z'),
    firstResponseAt: at('2026-03-02T09:00:42Z'),
    firstResponseSender: 'ai',
    aiReplies: 1,
    personReplies: 0,
    customerMessages: 1,
    ratings: 0,
    ratingSum: 0,
    satisfied: 0,
    assignedAgentId: null,
    firstPersonId: null,
    handoffs: 0,
    reopenings: 0,
    lastResolutionAt: null,
    ...overrides,
  };
}

describe('computeServiceLevel', () => {
  it('counts the conversation for its assignee, else for the first person who replied', () => {
    const assignee = '00000000-0000-4000-8000-00000000000a';
    const replier = '00000000-0000-4000-8000-00000000000b';
    expect(computeServiceLevel(facts({ assignedAgentId: assignee, firstPersonId: replier })).agentId).toBe(assignee);
    expect(computeServiceLevel(facts({ firstPersonId: replier })).agentId).toBe(replier);
    expect(computeServiceLevel(facts()).agentId).toBeNull();
    expect(computeServiceLevel(facts({ customerMessages: 3 })).customerMessages).toBe(3);
  });

  it('times the first response from the customer’s first message, on the wall clock and in business hours', () => {
    expect(computeServiceLevel(facts())).toMatchObject({ firstResponder: 'ai', firstResponseSeconds: 42, firstResponseBusinessSeconds: 42, resolvedAt: null, automated: false });
    const hours = { timezone: 'UTC', days: [{ day: 1, open: '09:00', close: '17:00' }] };
    // Sunday 23:00 → Monday 09:30: 10.5 h on the clock, 30 min in business hours.
    const level = computeServiceLevel(
      facts({ businessHours: hours, firstInboundAt: at('2026-03-01T23:00:00Z'), firstResponseAt: at('2026-03-02T09:30:00Z'), firstResponseSender: 'agent' }),
    );
    expect(level).toMatchObject({ firstResponder: 'person', firstResponseSeconds: 10.5 * 3600, firstResponseBusinessSeconds: 1800 });
  });

  it('leaves the first response empty until the customer has written and been answered', () => {
    expect(computeServiceLevel(facts({ firstInboundAt: null, firstResponseAt: null, firstResponseSender: null }))).toMatchObject({
      firstInboundAt: null,
      firstResponseAt: null,
      firstResponder: null,
      firstResponseSeconds: null,
      firstResponseBusinessSeconds: null,
    });
    expect(computeServiceLevel(facts({ firstResponseAt: null, firstResponseSender: null }))).toMatchObject({ firstResponder: null, firstResponseSeconds: null });
  });

  it('resolves at the latest recorded resolution, or (history before the record) at the last change; open: none', () => {
    const resolved = computeServiceLevel(facts({ status: 'resolved', lastResolutionAt: at('2026-03-02T10:00:00Z') }));
    expect(resolved).toMatchObject({ resolvedAt: at('2026-03-02T10:00:00Z'), resolutionSeconds: 3600, resolutionBusinessSeconds: 3600, automated: true });
    expect(computeServiceLevel(facts({ status: 'resolved' }))).toMatchObject({ resolvedAt: at('2026-03-02T12:00:00Z'), resolutionSeconds: 3 * 3600 });
    expect(computeServiceLevel(facts({ status: 'active', lastResolutionAt: at('2026-03-02T10:00:00Z') }))).toMatchObject({ resolvedAt: null, resolutionSeconds: null });
  });

  it('is automated only when the AI answered and no person wrote, took over or was handed it', () => {
    const resolved = { status: 'resolved' as const, lastResolutionAt: at('2026-03-02T10:00:00Z') };
    expect(computeServiceLevel(facts({ ...resolved })).automated).toBe(true);
    expect(computeServiceLevel(facts({ ...resolved, aiReplies: 0, firstResponseAt: null, firstResponseSender: null })).automated).toBe(false);
    expect(computeServiceLevel(facts({ ...resolved, personReplies: 1 })).automated).toBe(false);
    expect(computeServiceLevel(facts({ ...resolved, handoffs: 1 })).automated).toBe(false);
    expect(computeServiceLevel(facts({ ...resolved, handledBy: 'human' })).automated).toBe(false);
    // A hand-off from before the record left only the escalation reason: it counts once.
    expect(computeServiceLevel(facts({ ...resolved, escalated: true }))).toMatchObject({ handoffs: 1, automated: false });
    expect(computeServiceLevel(facts({ ...resolved, escalated: true, handoffs: 3 })).handoffs).toBe(3);
  });

  it('treats hours in a time zone this runtime does not know as always open', () => {
    expect(usableHours({ timezone: 'Mars/Olympus_Mons', days: [] })).toBeNull();
    expect(usableHours(null)).toBeNull();
    expect(computeServiceLevel(facts({ businessHours: { timezone: 'Mars/Olympus_Mons', days: [] } })).firstResponseBusinessSeconds).toBe(42);
  });
});

describe('dayChanges', () => {
  it('moves a day by the new rows minus the old ones, leaving days where nothing moved out', () => {
    const open = computeServiceLevel(facts({ firstResponseAt: null, firstResponseSender: null, aiReplies: 0 }));
    const answered = computeServiceLevel(facts());
    const resolved = computeServiceLevel(facts({ status: 'resolved', lastResolutionAt: at('2026-03-02T09:30:00Z'), aiReplies: 2, customerMessages: 2 }));
    const other = computeServiceLevel(facts({ conversationId: '00000000-0000-4000-8000-000000000009', createdAt: at('2026-03-03T23:59:59Z') }));
    // A new conversation: its whole share.
    expect(dayChanges([{ before: undefined, after: open }])).toEqual([dayShare(open)]);
    // Answered, then resolved by the AI alone.
    expect(dayChanges([{ before: open, after: answered }])).toEqual([
      expect.objectContaining({ day: '2026-03-02', conversations: 0, answered: 1, firstResponseSecondsSum: 42, messages: 1 }),
    ]);
    expect(dayChanges([{ before: answered, after: resolved }])).toEqual([
      expect.objectContaining({ answered: 0, resolved: 1, resolutionSecondsSum: 1800, automated: 1, messages: 2 }),
    ]);
    // Two days at once; a row that did not move changes nothing.
    expect(dayChanges([{ before: resolved, after: resolved }, { before: undefined, after: other }]).map((d) => [d.day, d.conversations])).toEqual([['2026-03-03', 1]]);
    // Summing a day's shares gives back its rollup, whatever path its rows took.
    const total = [dayShare(open), ...dayChanges([{ before: open, after: answered }]), ...dayChanges([{ before: answered, after: resolved }])].reduce(
      (sum, share) => ({ ...sum, conversations: sum.conversations + share.conversations, automated: sum.automated + share.automated, messages: sum.messages + share.messages }),
      { conversations: 0, automated: 0, messages: 0 },
    );
    expect(total).toEqual({ conversations: 1, automated: 1, messages: 4 });
  });
});
