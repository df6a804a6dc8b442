import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DashboardStats } from '../../../common/api/dashboard';
import { createTestApp, signedInClient, type TestApp } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import { expectJson, signedInClientUser } from '../../../test/helpers/inbox';
import { createTestChannel, createTestClient } from '../../../test/helpers/messaging';
import type { ConversationStatus } from '../../db/schema';

/** "Now" for the figures: the last 7 days are [03-08 12:00, 03-15 12:00), the 7 before [03-01 12:00, 03-08 12:00). */
const NOW = new Date('2026-03-15T12:00:00Z');

type Sender = 'customer' | 'ai' | 'agent';

describe.each(ENGINES)('dashboard figures (%s)', (engine) => {
  let app: TestApp;
  let clientB: { id: string };
  beforeAll(async () => {
    app = await createTestApp(engine, { startJobs: false, clock: { now: () => new Date(NOW) } });
    const db = app.database.db;
    const clientA = await createTestClient(app, 'Alpha Shop');
    clientB = await createTestClient(app, 'Beta Shop');
    const inactive = await createTestClient(app, 'Gone Shop');
    await db.updateTable('clients').set({ createdAt: new Date('2026-01-01T00:00:00Z') } as never).where('id', 'in', [clientA.id, inactive.id]).execute();
    await db.updateTable('clients').set({ createdAt: new Date('2026-03-10T00:00:00Z') } as never).where('id', '=', clientB.id).execute();
    await db.updateTable('clients').set({ status: 'inactive' }).where('id', '=', inactive.id).execute();
    // Parley's own demo business is active, and not counted.
    await app.services.widget.ensureDemoWidget('Parley Demo');

    const channelA = await createTestChannel(app, { clientId: clientA.id, kind: 'webchat' });
    const channelB = await createTestChannel(app, { clientId: clientB.id, kind: 'webchat' });

    /** A conversation and its messages as history; `firstResponseAt` as messaging records it (the first reply). */
    async function seed(channel: { id: string; clientId: string }, status: ConversationStatus, messages: readonly [Sender, string][]) {
      const contact = await db.insertInto('contacts').values({ clientId: channel.clientId, channelId: channel.id, externalId: `seed-${randomUUID()}` }).returning('id').executeTakeFirstOrThrow();
      const firstReply = messages.find(([sender]) => sender !== 'customer')?.[1] ?? null;
      const { id } = await db
        .insertInto('conversations')
        .values({
          clientId: channel.clientId,
          channelId: channel.id,
          contactId: contact.id,
          status,
          handledBy: 'ai',
          createdAt: messages[0]![1],
          updatedAt: messages.at(-1)![1],
          firstResponseAt: firstReply,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const [sender, at] of messages) {
        const inbound = sender === 'customer';
        await db
          .insertInto('messages')
          .values({
            conversationId: id,
            clientId: channel.clientId,
            channelId: channel.id,
            direction: inbound ? 'inbound' : 'outbound',
            senderType: sender,
            content: `${sender} at ${at}`,
            status: inbound ? 'received' : 'sent',
            createdAt: at,
          })
          .execute();
      }
    }

    // The last 7 days.
    await seed(channelA, 'active', [['customer', '2026-03-14T10:00:00Z'], ['ai', '2026-03-14T10:01:00Z'], ['ai', '2026-03-14T10:05:00Z']]); // 60 s
    await seed(channelA, 'resolved', [['customer', '2026-03-10T09:00:00Z'], ['agent', '2026-03-10T09:03:00Z']]); // 180 s
    await seed(channelA, 'escalated', [['customer', '2026-03-12T08:00:00Z']]); // not answered
    await seed(channelB, 'active', [['customer', '2026-03-13T15:00:00Z'], ['ai', '2026-03-13T15:01:30Z']]); // 90 s
    // Started long before, answered again this week: handled this week, its first reply was in February.
    await seed(channelA, 'active', [['customer', '2026-02-20T10:00:00Z'], ['ai', '2026-02-20T10:00:30Z'], ['customer', '2026-03-13T09:00:00Z'], ['ai', '2026-03-13T09:00:20Z']]);
    // The 7 days before.
    await seed(channelA, 'resolved', [['customer', '2026-03-03T10:00:00Z'], ['ai', '2026-03-03T10:02:00Z'], ['agent', '2026-03-03T11:00:00Z']]); // 120 s
    await seed(channelA, 'pending', [['customer', '2026-03-05T10:00:00Z']]);
    await seed(channelA, 'resolved', [['customer', '2026-03-06T10:00:00Z'], ['agent', '2026-03-06T10:00:30Z']]); // 30 s
    // Before both windows, and after "now": not counted in either.
    await seed(channelA, 'resolved', [['customer', '2026-02-01T10:00:00Z'], ['ai', '2026-02-01T10:00:10Z']]);
    await seed(channelA, 'resolved', [['customer', '2026-03-15T12:00:00Z'], ['ai', '2026-03-15T12:00:05Z']]);
  });
  afterAll(async () => {
    await app.destroy();
  });

  it('compares the last 7 days with the 7 before, across every client for staff', async () => {
    const admin = await signedInClient(app, 'admin');
    const stats = expectJson<DashboardStats>(await admin.client.get('/api/v1/dashboard/stats'), 200);
    expect(stats).toEqual({
      current: { from: '2026-03-08T12:00:00.000Z', to: '2026-03-15T12:00:00.000Z' },
      previous: { from: '2026-03-01T12:00:00.000Z', to: '2026-03-08T12:00:00.000Z' },
      conversationsHandled: { current: 4, previous: 2 },
      // Open now: three of A's (active ×2, escalated), A's pending one and B's.
      openTickets: { now: 5, openedCurrent: 4, openedPrevious: 3 },
      avgResponseTime: { currentSeconds: 110, previousSeconds: 75, currentSample: 3, previousSample: 2 },
      // Alpha and Beta are active (Gone is not, the demo is not counted); only Alpha existed a week ago.
      activeClients: { now: 2, previous: 1 },
    });
    const manager = await signedInClient(app, 'manager');
    expect(expectJson<DashboardStats>(await manager.client.get('/api/v1/dashboard/stats'), 200)).toEqual(stats);
  });

  it("gives a client user their own business's figures only, without Active Clients", async () => {
    const user = await signedInClientUser(app, clientB.id);
    expect(expectJson<DashboardStats>(await user.client.get('/api/v1/dashboard/stats'), 200)).toMatchObject({
      conversationsHandled: { current: 1, previous: 0 },
      openTickets: { now: 1, openedCurrent: 1, openedPrevious: 0 },
      avgResponseTime: { currentSeconds: 90, previousSeconds: null, currentSample: 1, previousSample: 0 },
      activeClients: null,
    });
    // A client user without a business sees nothing, not everyone's.
    const loose = await signedInClient(app, 'client');
    expect(expectJson<DashboardStats>(await loose.client.get('/api/v1/dashboard/stats'), 200)).toMatchObject({
      conversationsHandled: { current: 0, previous: 0 },
      openTickets: { now: 0, openedCurrent: 0, openedPrevious: 0 },
      activeClients: null,
    });
  });

  it('is for signed-in users only', async () => {
    expect((await app.client().get('/api/v1/dashboard/stats')).statusCode).toBe(401);
  });
});
