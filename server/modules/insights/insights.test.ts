/**
 * Service levels (issue 16 §1 and §6, docs/insights.md) on both engines:
 *  - a seeded history with hand-computed figures: first response by the AI and by a person, the
 *    business-hours variant across a weekend, resolution time, automated resolution or not,
 *    hand-offs and reopenings; the jobs get the events' times as the subscriptions would;
 *  - the same through the real flows (customer messages, the AI's and a person's replies, the
 *    portal's resolve, a reopening), kept current by the domain events alone;
 *  - idempotence (a job run twice, a recompute, events in another order), the daily rollups equal
 *    to the sums of their rows, the backfill of conversations without a row, tenant isolation of
 *    the read functions.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedInClient, type TestApp } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import { customerText, expectJson } from '../../../test/helpers/inbox';
import { createTestChannel, createTestClient } from '../../../test/helpers/messaging';
import type { Channel, ConversationStatus, HandledBy, SenderType } from '../../db/schema';
import { BACKFILL_BATCH, type DailyRollup, recomputeJob, type ServiceLevelRow, serviceLevelJob } from './index';

const HOUR = 3600;
const STAFF = { clientId: null };

type Step = { at: string; sender: SenderType };
type EventName = 'conversation.created' | 'message.created' | 'conversation.escalated' | 'conversation.reopened' | 'conversation.resolved';

describe.each(ENGINES)('service levels (%s)', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(engine);
  });
  afterAll(async () => {
    await app.destroy();
  });

  const db = () => app.database.db;
  const insights = () => app.services.insights;
  const level = async (conversationId: string) => {
    const row = await insights().findServiceLevel(STAFF, conversationId);
    if (!row) throw new Error(`no service level for ${conversationId}`);
    return row;
  };

  /** A conversation and its messages written straight to the tables, as history (no events: no job). */
  async function seed(
    channel: Channel,
    conversation: { createdAt: string; status?: ConversationStatus; handledBy?: HandledBy; escalationReason?: string; updatedAt?: string },
    steps: readonly Step[],
  ): Promise<string> {
    const contact = await db()
      .insertInto('contacts')
      .values({ clientId: channel.clientId, channelId: channel.id, externalId: `seed-${randomUUID()}` })
      .returning('id')
      .executeTakeFirstOrThrow();
    const { id } = await db()
      .insertInto('conversations')
      .values({
        clientId: channel.clientId,
        channelId: channel.id,
        contactId: contact.id,
        status: conversation.status ?? 'active',
        handledBy: conversation.handledBy ?? 'ai',
        escalationReason: conversation.escalationReason ?? null,
        createdAt: conversation.createdAt,
        updatedAt: conversation.updatedAt ?? conversation.createdAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const step of steps) {
      const inbound = step.sender === 'customer';
      await db()
        .insertInto('messages')
        .values({
          conversationId: id,
          clientId: channel.clientId,
          channelId: channel.id,
          direction: inbound ? 'inbound' : 'outbound',
          senderType: step.sender,
          content: `${step.sender} at ${step.at}`,
          status: inbound ? 'received' : 'sent',
          createdAt: step.at,
        })
        .execute();
    }
    return id;
  }

  /** The job a domain event of this conversation queues (its subscription's payload), at the event's time. */
  async function event(conversationId: string, name: EventName, at: string): Promise<number> {
    const id = await app.queue.enqueue(serviceLevelJob, { conversationId, event: name, at, performedBy: { kind: 'system' } });
    if (id === null) throw new Error('not queued');
    return id;
  }

  /** A satisfaction survey of the resolution at `resolvedAt`, answered with `rating` a minute later. */
  async function rate(channel: Channel, conversationId: string, resolvedAt: string, rating: number): Promise<void> {
    const answeredAt = new Date(Date.parse(resolvedAt) + 60_000);
    await db()
      .insertInto('satisfactionSurveys')
      .values({ clientId: channel.clientId, conversationId, channelId: channel.id, resolvedAt, question: 'How did we do?', status: 'answered', rating, answeredAt, expiresAt: new Date(Date.parse(resolvedAt) + 7 * 86_400_000) })
      .execute();
  }

  async function events(list: readonly [string, EventName, string][]): Promise<number[]> {
    const ids: number[] = [];
    for (const [conversationId, name, at] of list) ids.push(await event(conversationId, name, at));
    await app.queue.waitForIdle();
    return ids;
  }

  /** The rollups of the client's days, summed again from its rows by the test. */
  async function sumsOfRows(clientId: string, on: TestApp = app): Promise<Omit<DailyRollup, 'clientId'>[]> {
    const rows = await on.database.db.selectFrom('conversationServiceLevels').selectAll().where('clientId', '=', clientId).execute();
    const days = new Map<string, Omit<DailyRollup, 'clientId'>>();
    for (const row of rows) {
      const day = new Date(row.createdAt).toISOString().slice(0, 10);
      const sum = days.get(day) ?? {
        day,
        conversations: 0,
        answered: 0,
        firstResponseSecondsSum: 0,
        firstResponseBusinessSecondsSum: 0,
        resolved: 0,
        resolutionSecondsSum: 0,
        resolutionBusinessSecondsSum: 0,
        automated: 0,
        handedOff: 0,
        handoffs: 0,
        reopenings: 0,
        messages: 0,
        ratings: 0,
        ratingSum: 0,
        satisfied: 0,
      };
      sum.conversations += 1;
      sum.answered += row.firstResponseAt ? 1 : 0;
      sum.firstResponseSecondsSum += Number(row.firstResponseSeconds ?? 0);
      sum.firstResponseBusinessSecondsSum += Number(row.firstResponseBusinessSeconds ?? 0);
      sum.resolved += row.resolvedAt ? 1 : 0;
      sum.resolutionSecondsSum += Number(row.resolutionSeconds ?? 0);
      sum.resolutionBusinessSecondsSum += Number(row.resolutionBusinessSeconds ?? 0);
      sum.automated += row.automated ? 1 : 0;
      sum.handedOff += row.handoffs > 0 ? 1 : 0;
      sum.handoffs += row.handoffs;
      sum.reopenings += row.reopenings;
      sum.messages += row.customerMessages + row.aiReplies + row.personReplies;
      sum.ratings += row.ratings;
      sum.ratingSum += row.ratingSum;
      sum.satisfied += row.satisfied;
      days.set(day, sum);
    }
    return [...days.values()].sort((a, b) => a.day.localeCompare(b.day));
  }

  const withoutClient = (rollups: readonly DailyRollup[]) => rollups.map(({ clientId: _clientId, ...rest }) => rest);

  describe('a seeded history, by hand', () => {
    let channelA: Channel;
    let channelB: Channel;
    const ids = {} as Record<'ai' | 'handoff' | 'open' | 'person' | 'tuesday' | 'weekend' | 'saturday', string>;
    let handoffJobs: number[] = [];

    beforeAll(async () => {
      const clientA = await createTestClient(app);
      channelA = await createTestChannel(app, { clientId: clientA.id, kind: 'webchat' });
      // Client B's AI agent keeps Paris office hours, Monday to Friday 09:00–17:00 (08:00–16:00Z in March, before summer time).
      const clientB = await createTestClient(app);
      channelB = await createTestChannel(app, { clientId: clientB.id, kind: 'whatsapp' });
      await app.services.agents.updateAgent(clientB.id, {
        enabled: false,
        businessHours: { timezone: 'Europe/Paris', days: [1, 2, 3, 4, 5].map((day) => ({ day, open: '09:00', close: '17:00' })) },
      });

      // Monday 2 March 2026, client A (no agent: no business hours, so business time is wall time).
      // 1. The AI answers within 30 s and again later; a person resolves it: automated.
      ids.ai = await seed(channelA, { createdAt: '2026-03-02T09:00:00Z', status: 'resolved' }, [
        { at: '2026-03-02T09:00:00Z', sender: 'customer' },
        { at: '2026-03-02T09:00:30Z', sender: 'ai' },
        { at: '2026-03-02T09:05:00Z', sender: 'customer' },
        { at: '2026-03-02T09:05:10Z', sender: 'ai' },
      ]);
      // Rated 4 out of 5 after its resolution.
      await rate(channelA, ids.ai, '2026-03-02T09:30:00Z', 4);
      await events([
        [ids.ai, 'conversation.created', '2026-03-02T09:00:00Z'],
        [ids.ai, 'conversation.resolved', '2026-03-02T09:30:00Z'],
      ]);
      // 2. The AI hands it to a person at once, who answers after 20 min; resolved, reopened by the
      //    customer, resolved again at 13:00.
      ids.handoff = await seed(channelA, { createdAt: '2026-03-02T10:00:00Z', status: 'resolved', handledBy: 'human', escalationReason: 'Asked for a person' }, [
        { at: '2026-03-02T10:00:00Z', sender: 'customer' },
        { at: '2026-03-02T10:20:00Z', sender: 'agent' },
        { at: '2026-03-02T11:30:00Z', sender: 'customer' },
        { at: '2026-03-02T11:40:00Z', sender: 'agent' },
      ]);
      // Rated after each resolution: 2, then 5.
      await rate(channelA, ids.handoff, '2026-03-02T11:00:00Z', 2);
      await rate(channelA, ids.handoff, '2026-03-02T13:00:00Z', 5);
      handoffJobs = await events([
        [ids.handoff, 'conversation.escalated', '2026-03-02T10:01:00Z'],
        [ids.handoff, 'conversation.resolved', '2026-03-02T11:00:00Z'],
        [ids.handoff, 'conversation.reopened', '2026-03-02T11:30:00Z'],
        [ids.handoff, 'conversation.resolved', '2026-03-02T13:00:00Z'],
      ]);
      // 3. Nobody has answered yet.
      ids.open = await seed(channelA, { createdAt: '2026-03-02T14:00:00Z' }, [{ at: '2026-03-02T14:00:00Z', sender: 'customer' }]);
      await events([[ids.open, 'conversation.created', '2026-03-02T14:00:00Z']]);
      // 4. The AI answers in 5 s, then a person writes too (no hand-off recorded); resolved: not automated.
      ids.person = await seed(channelA, { createdAt: '2026-03-02T15:00:00Z', status: 'resolved' }, [
        { at: '2026-03-02T15:00:00Z', sender: 'customer' },
        { at: '2026-03-02T15:00:05Z', sender: 'ai' },
        { at: '2026-03-02T15:10:00Z', sender: 'agent' },
      ]);
      await events([[ids.person, 'conversation.resolved', '2026-03-02T16:00:00Z']]);
      // 5. Tuesday: the AI answers in a minute, resolved after half an hour.
      ids.tuesday = await seed(channelA, { createdAt: '2026-03-03T08:00:00Z', status: 'resolved' }, [
        { at: '2026-03-03T08:00:00Z', sender: 'customer' },
        { at: '2026-03-03T08:01:00Z', sender: 'ai' },
      ]);
      await events([[ids.tuesday, 'conversation.resolved', '2026-03-03T08:30:00Z']]);

      // Client B. 6. Friday 6 March 16:00 in Paris (one office hour left); a person answers on
      //    Monday 10:30 in Paris (1.5 office hours later), resolved at 11:00 in Paris.
      ids.weekend = await seed(channelB, { createdAt: '2026-03-06T15:00:00Z', status: 'resolved', handledBy: 'human' }, [
        { at: '2026-03-06T15:00:00Z', sender: 'customer' },
        { at: '2026-03-09T09:30:00Z', sender: 'agent' },
      ]);
      await events([[ids.weekend, 'conversation.resolved', '2026-03-09T10:00:00Z']]);
      // 7. Saturday: the AI answers in 20 s, all of it outside office hours.
      ids.saturday = await seed(channelB, { createdAt: '2026-03-07T10:00:00Z' }, [
        { at: '2026-03-07T10:00:00Z', sender: 'customer' },
        { at: '2026-03-07T10:00:20Z', sender: 'ai' },
      ]);
      await events([[ids.saturday, 'message.created', '2026-03-07T10:00:20Z']]);
    });

    it('first response by the AI, resolved without a person: automated', async () => {
      expect(await level(ids.ai)).toMatchObject({
        clientId: channelA.clientId,
        channelKind: 'webchat',
        createdAt: new Date('2026-03-02T09:00:00Z'),
        firstInboundAt: new Date('2026-03-02T09:00:00Z'),
        firstResponseAt: new Date('2026-03-02T09:00:30Z'),
        firstResponder: 'ai',
        firstResponseSeconds: 30,
        firstResponseBusinessSeconds: 30,
        resolvedAt: new Date('2026-03-02T09:30:00Z'),
        resolutionSeconds: 1800,
        resolutionBusinessSeconds: 1800,
        automated: true,
        handoffs: 0,
        reopenings: 0,
        aiReplies: 2,
        personReplies: 0,
        customerMessages: 2,
        agentId: null,
      });
    });

    it('first response by a person after a hand-off; reopened and resolved again: the latest resolution counts', async () => {
      expect(await level(ids.handoff)).toMatchObject({
        firstResponder: 'person',
        firstResponseAt: new Date('2026-03-02T10:20:00Z'),
        firstResponseSeconds: 20 * 60,
        resolvedAt: new Date('2026-03-02T13:00:00Z'),
        resolutionSeconds: 3 * HOUR,
        resolutionBusinessSeconds: 3 * HOUR,
        automated: false,
        handoffs: 1,
        reopenings: 1,
        aiReplies: 0,
        personReplies: 2,
      });
    });

    it('an unanswered open conversation, and a person writing after the AI: not automated', async () => {
      expect(await level(ids.open)).toMatchObject({
        firstInboundAt: new Date('2026-03-02T14:00:00Z'),
        firstResponseAt: null,
        firstResponder: null,
        firstResponseSeconds: null,
        firstResponseBusinessSeconds: null,
        resolvedAt: null,
        resolutionSeconds: null,
        automated: false,
      });
      expect(await level(ids.person)).toMatchObject({
        firstResponder: 'ai',
        firstResponseSeconds: 5,
        resolutionSeconds: HOUR,
        automated: false,
        handoffs: 0,
        aiReplies: 1,
        personReplies: 1,
      });
    });

    it('business hours: a Friday-evening question answered on Monday does not count the weekend', async () => {
      expect(await level(ids.weekend)).toMatchObject({
        channelKind: 'whatsapp',
        firstResponder: 'person',
        firstResponseSeconds: 66.5 * HOUR,
        // Friday 15:00–16:00Z, Monday 08:00–09:30Z.
        firstResponseBusinessSeconds: 2.5 * HOUR,
        resolutionSeconds: 67 * HOUR,
        resolutionBusinessSeconds: 3 * HOUR,
        automated: false,
      });
      expect(await level(ids.saturday)).toMatchObject({ firstResponder: 'ai', firstResponseSeconds: 20, firstResponseBusinessSeconds: 0, resolvedAt: null });
    });

    it('keeps one rollup per client and day, equal to the sums of its rows', async () => {
      const a = await insights().dailyRollups(STAFF, { from: '2026-03-01', to: '2026-03-31', clientId: channelA.clientId });
      expect(withoutClient(a)).toEqual([
        {
          day: '2026-03-02',
          conversations: 4,
          answered: 3,
          firstResponseSecondsSum: 30 + 1200 + 5,
          firstResponseBusinessSecondsSum: 30 + 1200 + 5,
          resolved: 3,
          resolutionSecondsSum: 1800 + 3 * HOUR + HOUR,
          resolutionBusinessSecondsSum: 1800 + 3 * HOUR + HOUR,
          automated: 1,
          handedOff: 1,
          handoffs: 1,
          reopenings: 1,
          // 4 + 4 + 1 + 3 messages in its four conversations
          messages: 12,
          // rated 4, then 2 and 5: two of three at 4 or more
          ratings: 3,
          ratingSum: 11,
          satisfied: 2,
        },
        {
          day: '2026-03-03',
          conversations: 1,
          answered: 1,
          firstResponseSecondsSum: 60,
          firstResponseBusinessSecondsSum: 60,
          resolved: 1,
          resolutionSecondsSum: 1800,
          resolutionBusinessSecondsSum: 1800,
          automated: 1,
          handedOff: 0,
          handoffs: 0,
          reopenings: 0,
          messages: 2,
          ratings: 0,
          ratingSum: 0,
          satisfied: 0,
        },
      ]);
      expect(withoutClient(a)).toEqual(await sumsOfRows(channelA.clientId));
      const b = await insights().dailyRollups(STAFF, { from: '2026-03-01', to: '2026-03-31', clientId: channelB.clientId });
      expect(withoutClient(b)).toEqual(await sumsOfRows(channelB.clientId));
      expect(b.map((r) => [r.day, r.firstResponseBusinessSecondsSum, r.resolutionBusinessSecondsSum])).toEqual([
        ['2026-03-06', 2.5 * HOUR, 3 * HOUR],
        ['2026-03-07', 0, 0],
      ]);
    });

    it('medians come from the rows of the period', async () => {
      expect(await insights().medians(STAFF, { from: '2026-03-02', to: '2026-03-03', clientId: channelA.clientId })).toEqual({
        conversations: 5,
        // 5, 30, 60, 1200
        firstResponseSeconds: 45,
        firstResponseBusinessSeconds: 45,
        // 1800, 1800, 3600, 10800
        resolutionSeconds: 2700,
        resolutionBusinessSeconds: 2700,
      });
      expect(await insights().medians(STAFF, { from: '2026-03-02', to: '2026-03-02', clientId: channelA.clientId })).toMatchObject({ conversations: 4, firstResponseSeconds: 30 });
    });

    it('is idempotent: a job run twice records its event once, a recompute changes nothing', async () => {
      const before = await level(ids.handoff);
      const rollups = await insights().dailyRollups(STAFF, { from: '2026-03-01', to: '2026-03-31', clientId: channelA.clientId });
      // The escalation's and the reopening's jobs again, with their own ids (a job claimed again after a crash).
      await insights().refresh([ids.handoff], { recorded: [{ jobId: handoffJobs[0]!, conversationId: ids.handoff, kind: 'handoff', at: new Date('2026-03-02T10:01:00Z') }] });
      await insights().refresh([ids.handoff], { recorded: [{ jobId: handoffJobs[2]!, conversationId: ids.handoff, kind: 'reopening', at: new Date('2026-03-02T11:30:00Z') }] });
      await insights().refresh(Object.values(ids));
      expect(await level(ids.handoff)).toEqual(before);
      expect(await insights().dailyRollups(STAFF, { from: '2026-03-01', to: '2026-03-31', clientId: channelA.clientId })).toEqual(rollups);
      expect(await db().selectFrom('serviceLevelEvents').select('kind').where('conversationId', '=', ids.handoff).orderBy('at').execute()).toEqual([
        { kind: 'handoff' },
        { kind: 'resolution' },
        { kind: 'reopening' },
        { kind: 'resolution' },
      ]);
    });

    it('gives the same row whatever order the jobs run in', async () => {
      const client = await createTestClient(app);
      const channel = await createTestChannel(app, { clientId: client.id, kind: 'webchat' });
      const twin = await seed(channel, { createdAt: '2026-03-02T10:00:00Z', status: 'resolved', handledBy: 'human', escalationReason: 'Asked for a person' }, [
        { at: '2026-03-02T10:00:00Z', sender: 'customer' },
        { at: '2026-03-02T10:20:00Z', sender: 'agent' },
        { at: '2026-03-02T11:30:00Z', sender: 'customer' },
        { at: '2026-03-02T11:40:00Z', sender: 'agent' },
      ]);
      await rate(channel, twin, '2026-03-02T11:00:00Z', 2);
      await rate(channel, twin, '2026-03-02T13:00:00Z', 5);
      await events([
        [twin, 'conversation.resolved', '2026-03-02T13:00:00Z'],
        [twin, 'conversation.reopened', '2026-03-02T11:30:00Z'],
        [twin, 'conversation.resolved', '2026-03-02T11:00:00Z'],
        [twin, 'conversation.escalated', '2026-03-02T10:01:00Z'],
      ]);
      const strip = ({ conversationId: _c, clientId: _k, channelKind: _ch, updatedAt: _u, ...figures }: ServiceLevelRow) => figures;
      expect(strip(await level(twin))).toEqual(strip(await level(ids.handoff)));
    });

    it('reads only the caller’s client: a client user never sees another client’s figures', async () => {
      const scopeB = { clientId: channelB.clientId };
      expect(await insights().findServiceLevel(scopeB, ids.ai)).toBeUndefined();
      expect(await insights().findServiceLevel(scopeB, ids.weekend)).toMatchObject({ conversationId: ids.weekend });
      // Naming another client does not widen a client user's scope.
      const asB = await insights().dailyRollups(scopeB, { from: '2026-03-01', to: '2026-03-31', clientId: channelA.clientId });
      expect(asB.map((r) => r.clientId)).toEqual([channelB.clientId, channelB.clientId]);
      expect(await insights().medians(scopeB, { from: '2026-03-01', to: '2026-03-31', clientId: channelA.clientId })).toMatchObject({
        conversations: 2,
        firstResponseSeconds: (66.5 * HOUR + 20) / 2,
      });
      // Staff read one client or all of them.
      const all = await insights().dailyRollups(STAFF, { from: '2026-03-01', to: '2026-03-31' });
      expect(all.filter((r) => r.clientId === channelA.clientId)).toHaveLength(2);
      expect(all.filter((r) => r.clientId === channelB.clientId)).toHaveLength(2);
      // A client user without a client (scopeFor's placeholder) sees nothing.
      const nobody = { clientId: '00000000-0000-0000-0000-000000000000' };
      expect(await insights().dailyRollups(nobody, { from: '2026-03-01', to: '2026-03-31' })).toEqual([]);
      expect(await insights().findServiceLevel(nobody, ids.weekend)).toBeUndefined();
      await expect(insights().dailyRollups(STAFF, { from: '2026-03-31', to: '2026-03-01' })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
      await expect(insights().medians(STAFF, { from: 'March', to: '2026-03-01' })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    });
  });

  it('is kept current by the domain events of the real flows', async () => {
    const client = await createTestClient(app);
    const channel = await createTestChannel(app, { clientId: client.id, kind: 'webchat' });
    const admin = await signedInClient(app, 'admin');

    // A customer writes: conversation.created and message.created.
    const first = await app.services.messaging.recordInbound(channel, customerText('visitor-levels', 'Hello, where is my order?'));
    await app.queue.waitForIdle();
    const created = await level(first.conversationId);
    expect(created).toMatchObject({ clientId: client.id, channelKind: 'webchat', firstResponseAt: null, resolvedAt: null, aiReplies: 0 });
    expect(created.firstInboundAt).not.toBeNull();

    // The AI answers.
    await app.services.messaging.sendAgentReply(first.conversationId, first.messageId, { text: 'It ships today.', senderType: 'ai', senderId: null });
    await app.queue.waitForIdle();
    const answered = await level(first.conversationId);
    expect(answered).toMatchObject({ firstResponder: 'ai', aiReplies: 1, personReplies: 0 });
    expect(answered.firstResponseSeconds).toBeGreaterThan(0);

    // A person resolves it from the portal: the AI's alone, so automated.
    expectJson(await admin.client.patch(`/api/v1/conversations/${first.conversationId}`, { status: 'resolved' }), 200);
    await app.queue.waitForIdle();
    const resolved = await level(first.conversationId);
    expect(resolved).toMatchObject({ automated: true, handoffs: 0, reopenings: 0 });
    expect(resolved.resolutionSeconds).toBeCloseTo((resolved.resolvedAt!.getTime() - resolved.createdAt.getTime()) / 1000, 3);

    // The customer writes again: reopened, no longer resolved.
    await app.services.messaging.recordInbound(channel, customerText('visitor-levels', 'It has not arrived'));
    await app.queue.waitForIdle();
    expect(await level(first.conversationId)).toMatchObject({ reopenings: 1, resolvedAt: null, resolutionSeconds: null, automated: false });

    // A person takes it over by replying (a hand-off), then resolves it again.
    expectJson(await admin.client.post(`/api/v1/conversations/${first.conversationId}/messages`, { text: 'Let me check with the courier.' }), 201);
    expectJson(await admin.client.patch(`/api/v1/conversations/${first.conversationId}`, { status: 'resolved' }), 200);
    await app.queue.waitForIdle();
    const final = await level(first.conversationId);
    expect(final).toMatchObject({ firstResponder: 'ai', aiReplies: 1, personReplies: 1, handoffs: 1, reopenings: 1, automated: false });
    expect(final.resolvedAt!.getTime()).toBeGreaterThan(resolved.resolvedAt!.getTime());

    const day = final.createdAt.toISOString().slice(0, 10);
    const [rollup] = await insights().dailyRollups({ clientId: client.id }, { from: day, to: day });
    expect(rollup).toMatchObject({ clientId: client.id, day, conversations: 1, answered: 1, resolved: 1, automated: 0, handedOff: 1, handoffs: 1, reopenings: 1 });
    expect(rollup!.firstResponseSecondsSum).toBeCloseTo(final.firstResponseSeconds!, 6);
    expect(rollup!.resolutionSecondsSum).toBeCloseTo(final.resolutionSeconds!, 6);
  });

  it('a new conversation or message marks it; one queued recompute job takes every mark and clears it', async () => {
    // Delayed as in production, so the marks and the job can be seen before it runs.
    const delayed = await createTestApp(engine, { insightsBatchDelayMs: 60_000 });
    try {
      const client = await createTestClient(delayed);
      const channel = await createTestChannel(delayed, { clientId: client.id, kind: 'webchat' });
      const first = await delayed.services.messaging.recordInbound(channel, customerText('visitor-marks-1', 'Hello'));
      await delayed.services.messaging.recordInbound(channel, customerText('visitor-marks-1', 'Anyone there?'));
      const second = await delayed.services.messaging.recordInbound(channel, customerText('visitor-marks-2', 'Hi'));
      const marks = () => delayed.database.db.selectFrom('serviceLevelMarks').select('conversationId').orderBy('conversationId').execute();
      const jobs = () => delayed.database.db.selectFrom('jobs').select(['status', 'payload']).where('name', '=', recomputeJob.name).execute();
      expect((await marks()).map((m) => m.conversationId)).toEqual([first.conversationId, second.conversationId].sort());
      expect(await jobs()).toEqual([{ status: 'queued', payload: {} }]);
      expect(await delayed.services.insights.findServiceLevel(STAFF, first.conversationId)).toBeUndefined();

      await delayed.database.db.updateTable('jobs').set({ runAt: new Date() }).where('name', '=', recomputeJob.name).execute();
      await delayed.queue.waitForIdle();
      expect(await marks()).toEqual([]);
      expect(await jobs()).toEqual([{ status: 'completed', payload: {} }]);
      expect(await delayed.services.insights.findServiceLevel(STAFF, first.conversationId)).toMatchObject({ customerMessages: 2 });
      expect(await delayed.services.insights.findServiceLevel(STAFF, second.conversationId)).toMatchObject({ customerMessages: 1 });
    } finally {
      await delayed.destroy();
    }
  });

  it('the recompute takes more marks than one batch, in batches', async () => {
    const client = await createTestClient(app);
    const channel = await createTestChannel(app, { clientId: client.id, kind: 'api' });
    // Marked conversations (as a failed run or an older instance might leave them), more than one batch.
    const count = 520;
    await sql`
      with contacts_in as (
        insert into contacts (client_id, channel_id, external_id)
        select ${client.id}::uuid, ${channel.id}::uuid, 'marked-' || n from generate_series(1, ${count}::int) n
        returning id
      ), conversations_in as (
        insert into conversations (client_id, channel_id, contact_id, created_at, updated_at)
        select ${client.id}::uuid, ${channel.id}::uuid, id, '2026-02-11T12:00:00Z', '2026-02-11T12:00:00Z' from contacts_in
        returning id
      )
      insert into service_level_marks (conversation_id) select id from conversations_in`.execute(db());
    expect(await insights().recomputeMarked()).toEqual({ conversations: count, counted: 0 });
    const rows = await db().selectFrom('conversationServiceLevels').select((eb) => eb.fn.countAll<number>().as('n')).where('clientId', '=', client.id).executeTakeFirstOrThrow();
    expect(Number(rows.n)).toBe(count);
    const [day] = await insights().dailyRollups({ clientId: client.id }, { from: '2026-02-11', to: '2026-02-11' });
    expect(day).toMatchObject({ conversations: count });
    expect(await db().selectFrom('serviceLevelMarks').selectAll().execute()).toEqual([]);
  });

  // Two transactions at once: PostgreSQL only (PGlite has one connection, so they cannot overlap).
  it.runIf(engine === 'postgres')('a message committed while a recompute runs leaves its conversation marked for the next one', async () => {
    const client = await createTestClient(app);
    const channel = await createTestChannel(app, { clientId: client.id, kind: 'api' });
    const conversationId = await seed(channel, { createdAt: '2026-02-12T08:00:00Z' }, [{ at: '2026-02-12T08:00:00Z', sender: 'customer' }]);
    await sql`insert into service_level_marks (conversation_id) values (${conversationId}::uuid)`.execute(db());
    // A second message, its transaction held open after marking the conversation (as parley_publish does).
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let markedNow!: () => void;
    const marked = new Promise<void>((resolve) => (markedNow = resolve));
    const message = db()
      .transaction()
      .execute(async (trx) => {
        await trx
          .insertInto('messages')
          .values({ conversationId, clientId: client.id, channelId: channel.id, direction: 'inbound', senderType: 'customer', content: 'again', status: 'received', createdAt: '2026-02-12T08:05:00Z' })
          .execute();
        await sql`select parley_insights_mark(${JSON.stringify([{ conversationId }])}::jsonb)`.execute(trx);
        markedNow();
        await held;
      });
    await marked;
    // The recompute reads the mark and the facts without the uncommitted message, then waits for its mark's lock.
    const recompute = insights().recomputeMarked();
    for (let waited = 0; ; waited += 20) {
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
        where wait_event_type = 'Lock' and query like 'delete from service_level_marks%'`.execute(db());
      if (rows[0]!.n > 0) break;
      if (waited > 10_000) throw new Error('the recompute never waited for the mark');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    release();
    await message;
    expect(await recompute).toEqual({ conversations: 1, counted: 0 });
    expect(await level(conversationId)).toMatchObject({ customerMessages: 1 });
    // The mark stays, asking for a recompute from the facts (its message may or may not have been read).
    expect(await db().selectFrom('serviceLevelMarks').select(['conversationId', 'recompute']).where('conversationId', '=', conversationId).execute()).toEqual([
      { conversationId, recompute: true },
    ]);
    // The next recompute counts the message and clears the mark.
    expect(await insights().recomputeMarked()).toEqual({ conversations: 1, counted: 0 });
    expect(await level(conversationId)).toMatchObject({ customerMessages: 2 });
    expect(await db().selectFrom('serviceLevelMarks').selectAll().where('conversationId', '=', conversationId).execute()).toEqual([]);
  });

  it('parley_insights_mark: a customer’s or the AI’s message counts itself, anything else asks for a recompute', async () => {
    const client = await createTestClient(app);
    const channel = await createTestChannel(app, { clientId: client.id, kind: 'api' });
    const [plain, person, created] = await Promise.all(
      [0, 1, 2].map((n) => seed(channel, { createdAt: `2026-02-13T0${n}:00:00Z` }, [{ at: `2026-02-13T0${n}:00:00Z`, sender: 'customer' }])),
    );
    const mark = async (payloads: readonly object[]) => sql`select parley_insights_mark(${JSON.stringify(payloads)}::jsonb)`.execute(db());
    const marks = () =>
      db()
        .selectFrom('serviceLevelMarks')
        .select(['conversationId', 'version', 'recompute', 'customerMessages', 'aiReplies'])
        .where('conversationId', 'in', [plain!, person!, created!])
        .execute();
    await mark([
      { conversationId: plain, direction: 'inbound', senderType: 'customer' },
      { conversationId: plain, direction: 'outbound', senderType: 'ai' },
      { conversationId: plain, direction: 'inbound', senderType: 'customer' },
      { conversationId: person, direction: 'outbound', senderType: 'agent' },
      { conversationId: created },
    ]);
    const byId = async () => new Map((await marks()).map((m) => [m.conversationId, { ...m, version: Number(m.version) }]));
    let now = await byId();
    expect(now.get(plain!)).toMatchObject({ version: 0, recompute: false, customerMessages: 2, aiReplies: 1 });
    expect(now.get(person!)).toMatchObject({ recompute: true, customerMessages: 0, aiReplies: 0 });
    expect(now.get(created!)).toMatchObject({ recompute: true });
    // Marked again: the counts add up; a satisfaction answer (no direction) asks for a recompute.
    await mark([{ conversationId: plain, direction: 'inbound', senderType: 'customer' }]);
    expect((await byId()).get(plain!)).toMatchObject({ version: 1, recompute: false, customerMessages: 3, aiReplies: 1 });
    await mark([{ conversationId: plain }]);
    now = await byId();
    expect(now.get(plain!)).toMatchObject({ version: 2, recompute: true, customerMessages: 3, aiReplies: 1 });
    await insights().recomputeMarked();
    expect(await marks()).toEqual([]);
    // Recomputed from the facts: the seeded message, not the counts the test marked.
    expect(await level(plain!)).toMatchObject({ customerMessages: 1, aiReplies: 0 });
  });

  it('a plain message only adds to its row: the same row and rollup as a recompute from the facts', async () => {
    const delayed = await createTestApp(engine, { insightsBatchDelayMs: 60_000 });
    try {
      const client = await createTestClient(delayed);
      const channel = await createTestChannel(delayed, { clientId: client.id, kind: 'webchat' });
      const messaging = delayed.services.messaging;
      const service = delayed.services.insights;
      const row = async (id: string) => {
        const found = await service.findServiceLevel(STAFF, id);
        if (!found) throw new Error('no row');
        const { updatedAt: _updatedAt, ...rest } = found;
        return rest;
      };
      const rollups = async () => {
        const day = new Date().toISOString().slice(0, 10);
        return service.dailyRollups({ clientId: client.id }, { from: day, to: day });
      };

      // A new conversation: recomputed. Its next customer message only counts.
      const first = await messaging.recordInbound(channel, customerText('visitor-counts', 'Hello, where is my order?'));
      expect(await service.recomputeMarked()).toEqual({ conversations: 1, counted: 0 });
      const second = await messaging.recordInbound(channel, customerText('visitor-counts', 'Hello?'));
      expect(await service.recomputeMarked()).toEqual({ conversations: 1, counted: 1 });
      expect(await row(first.conversationId)).toMatchObject({ customerMessages: 2, firstResponseAt: null });

      // The AI's first answer sets the first response: recomputed.
      expect(await messaging.sendAgentReply(first.conversationId, second.messageId, { text: 'It ships today.', senderType: 'ai', senderId: null })).not.toBeNull();
      expect(await service.recomputeMarked()).toEqual({ conversations: 1, counted: 0 });
      const answered = await row(first.conversationId);
      expect(answered).toMatchObject({ firstResponder: 'ai', customerMessages: 2, aiReplies: 1 });

      // After it, the customer's and the AI's messages only count — several in one mark.
      const more = await messaging.recordInbound(channel, customerText('visitor-counts', 'Which courier?'));
      expect(await messaging.sendAgentReply(first.conversationId, more.messageId, { text: 'The usual one.', senderType: 'ai', senderId: null })).not.toBeNull();
      await messaging.recordInbound(channel, customerText('visitor-counts', 'Thanks'));
      expect(await service.recomputeMarked()).toEqual({ conversations: 1, counted: 1 });
      const counted = await row(first.conversationId);
      expect(counted).toEqual({ ...answered, customerMessages: 4, aiReplies: 2 });
      const [day] = await rollups();
      expect(day).toMatchObject({ conversations: 1, answered: 1, messages: 6 });

      // A recompute from the facts finds the same row, and moves the day by nothing.
      await service.refresh([first.conversationId]);
      expect(await row(first.conversationId)).toEqual(counted);
      expect(await rollups()).toEqual([day]);

      // A person's reply is recomputed (it may change who the conversation counts for).
      await messaging.sendMessage(first.conversationId, { text: 'Let me check.', senderType: 'agent', senderId: null }, { kind: 'automation', automationId: randomUUID() });
      expect(await service.recomputeMarked()).toEqual({ conversations: 1, counted: 0 });
      expect(await row(first.conversationId)).toMatchObject({ personReplies: 1, aiReplies: 2, customerMessages: 4 });

      // A recompute from the facts before the pass (a hand-off's or resolution's job): the counts
      // it read are not added again.
      await messaging.recordInbound(channel, customerText('visitor-counts', 'Any news?'));
      await service.refresh([first.conversationId]);
      expect(await service.recomputeMarked()).toEqual({ conversations: 0, counted: 0 });
      expect(await row(first.conversationId)).toMatchObject({ customerMessages: 5, aiReplies: 2, personReplies: 1 });
      expect(await rollups()).toEqual([{ ...day, messages: 8 }]);
      expect(await sumsOfRows(client.id, delayed)).toEqual(withoutClient(await rollups()));
    } finally {
      await delayed.destroy();
    }
  });

  it('INSIGHTS_UPKEEP=off: the events queue no job (the bench measures the upkeep against it), queued jobs still run', async () => {
    const off = await createTestApp(engine, { env: { INSIGHTS_UPKEEP: 'off' } });
    try {
      expect(off.config.insightsUpkeep).toBe(false);
      const client = await createTestClient(off);
      const channel = await createTestChannel(off, { clientId: client.id, kind: 'webchat' });
      const first = await off.services.messaging.recordInbound(channel, customerText('visitor-upkeep-off', 'Hello, where is my order?'));
      await off.services.messaging.sendAgentReply(first.conversationId, first.messageId, { text: 'It ships today.', senderType: 'ai', senderId: null });
      await off.queue.waitForIdle();
      const jobs = await off.database.db.selectFrom('jobs').select('id').where('name', 'in', [serviceLevelJob.name, recomputeJob.name]).execute();
      expect(jobs).toEqual([]);
      expect(await off.database.db.selectFrom('serviceLevelMarks').selectAll().execute()).toEqual([]);
      expect(await off.services.insights.findServiceLevel(STAFF, first.conversationId)).toBeUndefined();

      // The handler is still there: a job queued by other means (a backfill, an older instance) runs.
      await off.queue.enqueue(serviceLevelJob, { conversationId: first.conversationId });
      await off.queue.waitForIdle();
      expect(await off.services.insights.findServiceLevel(STAFF, first.conversationId)).toMatchObject({ firstResponder: 'ai', aiReplies: 1 });
    } finally {
      await off.destroy();
    }
  });

  it('backfills conversations that have no row, in batches, with what the history tells', async () => {
    const client = await createTestClient(app);
    const channel = await createTestChannel(app, { clientId: client.id, kind: 'api' });
    // History from before the service levels: more conversations than one batch.
    const count = BACKFILL_BATCH + 20;
    await sql`
      with contacts_in as (
        insert into contacts (client_id, channel_id, external_id)
        select ${client.id}::uuid, ${channel.id}::uuid, 'backfill-' || n from generate_series(1, ${count}::int) n
        returning id
      )
      insert into conversations (client_id, channel_id, contact_id, created_at, updated_at)
      select ${client.id}::uuid, ${channel.id}::uuid, id, '2026-02-10T12:00:00Z', '2026-02-10T12:00:00Z' from contacts_in`.execute(db());
    // One resolved after a hand-off (its reason is all that is left of it), an hour after it began, the AI having answered.
    const escalated = await seed(
      channel,
      { createdAt: '2026-02-10T08:00:00Z', status: 'resolved', handledBy: 'human', escalationReason: 'Asked for a person', updatedAt: '2026-02-10T09:00:00Z' },
      [
        { at: '2026-02-10T08:00:00Z', sender: 'customer' },
        { at: '2026-02-10T08:00:10Z', sender: 'ai' },
      ],
    );

    expect(await insights().startBackfill()).toBe(true);
    await app.queue.waitForIdle(30_000);

    const rows = await db().selectFrom('conversationServiceLevels').select((eb) => eb.fn.countAll<number>().as('n')).where('clientId', '=', client.id).executeTakeFirstOrThrow();
    expect(Number(rows.n)).toBe(count + 1);
    expect(await level(escalated)).toMatchObject({
      firstResponseSeconds: 10,
      resolvedAt: new Date('2026-02-10T09:00:00Z'),
      resolutionSeconds: HOUR,
      handoffs: 1,
      automated: false,
    });
    const rollups = await insights().dailyRollups(STAFF, { from: '2026-02-10', to: '2026-02-10', clientId: client.id });
    expect(rollups).toMatchObject([{ day: '2026-02-10', conversations: count + 1, answered: 1, resolved: 1, handedOff: 1, handoffs: 1, automated: 0 }]);
    expect(withoutClient(rollups)).toEqual(await sumsOfRows(client.id));
    // The chain ended: nothing of it left waiting.
    const waiting = await db().selectFrom('jobs').select('id').where('name', '=', 'insights.backfill').where('status', 'in', ['queued', 'running']).execute();
    expect(waiting).toEqual([]);
  });
});
