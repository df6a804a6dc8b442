/**
 * Admin Settings → Notifications (docs/admin-settings.md): the `escalations` and `lowConfidence`
 * switches decide which administrators are told of the AI agent's hand-offs, in the app and by
 * e-mail; managers are told as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentClient } from '../../../test/helpers/agents';
import { createTestApp, signedInClient, type TestApp } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import { customerText } from '../../../test/helpers/inbox';

describe.each(ENGINES)('who is told of a hand-off (%s)', (engine) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp(engine);
  });
  afterAll(async () => {
    await app.destroy();
  });

  const db = () => app.database.db;

  /** Notifications and e-mails about the conversation: who got which. */
  async function toldAbout(conversationId: string, users: readonly { userId: string; email: string }[]) {
    const link = `/conversations?conversation=${conversationId}`;
    const result: { inApp: string[]; email: string[] } = { inApp: [], email: [] };
    for (const user of users) {
      const notes = await db().selectFrom('notifications').select('kind').where('userId', '=', user.userId).where('link', '=', link).execute();
      if (notes.some((n) => n.kind === 'conversation.escalated')) result.inApp.push(user.email);
      const emails = await db()
        .selectFrom('emails')
        .select('id')
        .where('toAddress', '=', user.email)
        .where('kind', '=', 'conversation-escalated')
        .where('textBody', 'like', `%${conversationId}%`)
        .execute();
      if (emails.length > 0) result.email.push(user.email);
    }
    result.inApp.sort();
    result.email.sort();
    return result;
  }

  it('tells each administrator only of the hand-offs their switches keep on', async () => {
    const { channel } = await createAgentClient(app);
    const lowOnly = await signedInClient(app, 'admin');
    const escalationsOnly = await signedInClient(app, 'admin');
    const manager = await signedInClient(app, 'manager');
    expect((await lowOnly.client.patch('/api/v1/me/notification-preferences', { escalations: false, lowConfidence: true })).statusCode).toBe(200);
    expect((await escalationsOnly.client.patch('/api/v1/me/notification-preferences', { escalations: true, lowConfidence: false })).statusCode).toBe(200);
    const people = [lowOnly, escalationsOnly, manager];

    // Nonsense: the agent is not confident enough.
    const unsure = await app.services.messaging.recordInbound(channel, customerText('pref-visitor-1', 'purple elephant quantum banana'));
    await app.queue.waitForIdle();
    const unsureConversation = await db().selectFrom('conversations').select(['status', 'escalationReason']).where('id', '=', unsure.conversationId).executeTakeFirstOrThrow();
    expect(unsureConversation.status).toBe('escalated');
    expect(unsureConversation.escalationReason).toMatch(/^the AI was not confident enough/u);
    expect(await toldAbout(unsure.conversationId, people)).toEqual({
      inApp: [lowOnly.email, manager.email].sort(),
      email: [lowOnly.email, manager.email].sort(),
    });

    // The customer asks for a person: an escalation.
    const asked = await app.services.messaging.recordInbound(channel, customerText('pref-visitor-2', 'Can I speak to a real person about my refund?'));
    await app.queue.waitForIdle();
    const askedConversation = await db().selectFrom('conversations').select(['status', 'escalationReason']).where('id', '=', asked.conversationId).executeTakeFirstOrThrow();
    expect(askedConversation).toEqual({ status: 'escalated', escalationReason: 'the customer asked for a person' });
    expect(await toldAbout(asked.conversationId, people)).toEqual({
      inApp: [escalationsOnly.email, manager.email].sort(),
      email: [escalationsOnly.email, manager.email].sort(),
    });
  });

  it('e-mails an administrator only while they take e-mail notifications', async () => {
    const { channel } = await createAgentClient(app);
    const admin = await signedInClient(app, 'admin');
    expect((await admin.client.patch('/api/v1/me/notification-preferences', { emailNotifications: false, escalations: true })).statusCode).toBe(200);
    const asked = await app.services.messaging.recordInbound(channel, customerText('pref-visitor-3', 'I want to talk to a human please'));
    await app.queue.waitForIdle();
    expect(await toldAbout(asked.conversationId, [admin])).toEqual({ inApp: [admin.email], email: [] });
  });
});
