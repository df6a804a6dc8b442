/**
 * Reports by e-mail (issue 16 §5; docs/insights.md, "Reports by e-mail") on both engines, through
 * the recurring jobs and a real SMTP server on loopback: the figures of a seeded history computed
 * by hand, a client user's report carrying only their own client, preferences off (or a disabled
 * account) sending nothing, each report sent exactly once with two instances running the same
 * period at once and again after a restart, and an SMTP failure retried without a second e-mail.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_NOTIFICATION_PREFERENCES, type NotificationPreferences } from '../../../common/api/me';
import { createTestApp, type TestApp } from '../../../test/helpers/app';
import { ENGINES, secondInstance } from '../../../test/helpers/database';
import { createTestChannel, createTestClient } from '../../../test/helpers/messaging';
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from '../../../test/helpers/smtp';
import type { Role } from '../../../common/roles';
import type { Channel, SenderType } from '../../db/schema';
import { periodAt, periodOf } from '../../jobs/schedule';
import { dailyReportJob, weeklyReportJob } from './report-emails.jobs';
import { reportedPeriod } from './report-emails.service';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const SMTP_FROM = 'Parley <hello@parley.test>';

/** A MIME header's encoded words (RFC 2047) decoded. */
function decodeHeader(value: string): string {
  return value
    .replace(/\r?\n[ \t]+/gu, ' ')
    .replace(/\?=\s+=\?/gu, '?==?')
    .replace(/=\?utf-8\?([qb])\?([^?]*)\?=/giu, (_, encoding: string, text: string) =>
      encoding.toLowerCase() === 'b'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(text.replace(/_/gu, ' ').replace(/=([0-9A-F]{2})/giu, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8'),
    )
    .trim();
}

function subjectOf(raw: string): string {
  return decodeHeader(/^Subject: (.*(?:\r?\n[ \t].*)*)/imu.exec(raw)?.[1] ?? '');
}

/** A part of the message (`text/plain` or `text/html`) as the reader sees it: transfer encoding undone. */
function partOf(raw: string, type: 'text/plain' | 'text/html'): string {
  const message = raw.replace(/\r\n/gu, '\n');
  const boundary = /boundary="?([^";\n]+)"?/u.exec(message)?.[1];
  const parts = boundary ? message.split(`--${boundary}`) : [message];
  const part = parts.find((p) => new RegExp(`content-type:\\s*${type}`, 'iu').test(p));
  if (!part) throw new Error(`no ${type} part`);
  const split = part.indexOf('\n\n', part.search(/\S/u));
  const head = part.slice(0, split);
  const body = part.slice(split + 2).replace(/\n$/u, '');
  const encoding = /content-transfer-encoding:\s*([\w-]+)/iu.exec(head)?.[1]?.toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/gu, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    return Buffer.from(body.replace(/=\n/gu, '').replace(/=([0-9A-F]{2})/giu, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8');
  }
  return body;
}

describe.each(ENGINES)('reports by e-mail (%s)', (engine) => {
  let smtp: TestSmtpServer;
  let app: TestApp;
  /** A second instance on the same database, running jobs too. */
  let other: TestApp;
  let alpha: { id: string; name: string };
  let beta: { id: string; name: string };
  let person: string;
  type Person = 'ada' | 'bo' | 'quinn' | 'gone' | 'max' | 'alphaUser' | 'betaUser' | 'betaQuiet' | 'noClient';
  const users = {} as Record<Person, { id: string; email: string }>;

  /** A conversation and its messages (each step: who, how long after the start), written as history; then its service levels. */
  async function seed(
    channel: Channel,
    startedAt: string,
    steps: readonly [SenderType, number][],
    options: { resolvedAfter?: number; rating?: number; escalationReason?: string } = {},
  ): Promise<void> {
    const db = app.database.db;
    const started = Date.parse(startedAt);
    const contact = await db
      .insertInto('contacts')
      .values({ clientId: channel.clientId, channelId: channel.id, externalId: `seed-${randomUUID()}` })
      .returning('id')
      .executeTakeFirstOrThrow();
    const { id } = await db
      .insertInto('conversations')
      .values({
        clientId: channel.clientId,
        channelId: channel.id,
        contactId: contact.id,
        status: options.resolvedAfter === undefined ? 'active' : 'resolved',
        handledBy: steps.some(([sender]) => sender === 'agent') ? 'human' : 'ai',
        escalationReason: options.escalationReason ?? null,
        createdAt: new Date(started).toISOString(),
        updatedAt: new Date(started + (options.resolvedAfter ?? 0)).toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const [sender, after] of steps) {
      const inbound = sender === 'customer';
      await db
        .insertInto('messages')
        .values({
          conversationId: id,
          clientId: channel.clientId,
          channelId: channel.id,
          direction: inbound ? 'inbound' : 'outbound',
          senderType: sender,
          senderId: sender === 'agent' ? person : null,
          content: `${sender} after ${after} ms`,
          status: inbound ? 'received' : 'sent',
          createdAt: new Date(started + after).toISOString(),
        })
        .execute();
    }
    if (options.rating !== undefined) {
      const resolvedAt = new Date(started + (options.resolvedAfter ?? 0));
      await db
        .insertInto('satisfactionSurveys')
        .values({
          clientId: channel.clientId,
          conversationId: id,
          channelId: channel.id,
          resolvedAt,
          question: 'How did we do?',
          status: 'answered',
          rating: options.rating,
          answeredAt: new Date(resolvedAt.getTime() + MINUTE),
          expiresAt: new Date(resolvedAt.getTime() + 7 * DAY),
        })
        .execute();
    }
    await app.services.insights.refresh([id]);
  }

  async function user(name: string, role: Role, preferences: Partial<NotificationPreferences>, clientId?: string) {
    const email = `${name.toLowerCase().replace(/\W+/gu, '-')}-${randomUUID().slice(0, 8)}@example.com`;
    const created = await app.services.users.createUser({ email, password: 'Corr3ct!Horse#Battery', role, name, ...(clientId ? { clientId } : {}) });
    await app.services.users.setNotificationPreferences(created.id, { ...DEFAULT_NOTIFICATION_PREFERENCES, ...preferences });
    return { id: created.id, email };
  }

  /** Runs the recurring job for the period it runs in (`2026-11-28` reports 27 November) and waits for it and its e-mails. */
  async function run(job: typeof dailyReportJob, runPeriod: string, on: TestApp = app): Promise<void> {
    await on.queue.enqueue(job.job, { period: runPeriod });
    await idle();
  }

  async function idle(): Promise<void> {
    for (let round = 0; round < 2; round += 1) await Promise.all([app.queue.waitForIdle(30_000), other.queue.waitForIdle(30_000)]);
  }

  /** The SMTP messages to `to` with this subject. */
  const mails = (to: string, subject: string): ReceivedMail[] => smtp.messages.filter((m) => m.to.includes(to) && subjectOf(m.raw) === subject);
  const deliveries = (kind: 'daily' | 'weekly', period: string) =>
    app.database.db.selectFrom('reportDeliveries').selectAll().where('kind', '=', kind).where('period', '=', period).execute();
  const reportEmails = (subject: string) => app.database.db.selectFrom('emails').selectAll().where('subject', '=', subject).execute();

  beforeAll(async () => {
    smtp = await startSmtpServer();
    const env = { SMTP_URL: smtp.url, SMTP_FROM };
    app = await createTestApp(engine, { env });
    other = await createTestApp(engine, { env, database: await secondInstance(app.database) });
    const a = await createTestClient(app, `Alpha ${randomUUID().slice(0, 6)}`);
    const b = await createTestClient(app, `Beta ${randomUUID().slice(0, 6)}`);
    alpha = { id: a.id, name: a.companyName };
    beta = { id: b.id, name: b.companyName };
    const alphaChat = await createTestChannel(app, { clientId: alpha.id, kind: 'webchat' });
    const betaChat = await createTestChannel(app, { clientId: beta.id, kind: 'webchat' });

    users.ada = await user('Ada Admin', 'admin', { dailyReports: true, weeklyReports: true });
    users.bo = await user('Bo Admin', 'admin', { dailyReports: true });
    users.quinn = await user('Quinn Quiet', 'admin', {});
    users.gone = await user('Gail Gone', 'admin', { dailyReports: true, weeklyReports: true });
    await app.database.db.updateTable('users').set({ disabledAt: new Date() }).where('id', '=', users.gone.id).execute();
    users.max = await user('Max Manager', 'manager', { weeklyReports: true, dailyReports: true });
    person = users.max.id;
    // Daily Reports is the administrators' (a client user who switched it on gets no daily report).
    users.alphaUser = await user('Alma Alpha', 'client', { weeklyReports: true, dailyReports: true }, alpha.id);
    users.betaUser = await user('Ben Beta', 'client', { weeklyReports: true }, beta.id);
    users.betaQuiet = await user('Bea Beta', 'client', {}, beta.id);
    users.noClient = await user('Nora Nobody', 'client', { weeklyReports: true });

    // Friday 27 November 2026 (ISO week 48, 23–29 November). Alpha: the AI answers in 30 s and it
    // is resolved, rated 5 (automated); the AI answers in 90 s, the customer asks for a person, who
    // writes and resolves it, rated 2 (handed off). Beta: a person answers in 10 min, unresolved.
    await seed(alphaChat, '2026-11-27T10:00:00Z', [['customer', 0], ['ai', 30_000]], { resolvedAfter: 10 * MINUTE, rating: 5 });
    await seed(alphaChat, '2026-11-27T12:00:00Z', [['customer', 0], ['ai', 90_000], ['customer', 5 * MINUTE], ['agent', 6 * MINUTE]], {
      resolvedAfter: HOUR,
      rating: 2,
      escalationReason: 'The customer asked for a person',
    });
    await seed(betaChat, '2026-11-27T09:00:00Z', [['customer', 0], ['agent', 10 * MINUTE]]);
    // Thursday 26 November: Alpha, automated in 60 s, rated 4.
    await seed(alphaChat, '2026-11-26T09:00:00Z', [['customer', 0], ['ai', 60_000]], { resolvedAfter: 5 * MINUTE, rating: 4 });
    // Week 47: Beta, a person answers in 2 min and resolves it.
    await seed(betaChat, '2026-11-20T15:00:00Z', [['customer', 0], ['agent', 2 * MINUTE]], { resolvedAfter: 30 * MINUTE });
  }, 180_000);

  afterAll(async () => {
    await other?.destroy();
    await app?.destroy();
    await smtp?.close();
  });

  it('e-mails the daily report of the day before to the administrators who asked for it, with the figures computed by hand', async () => {
    await run(dailyReportJob, '2026-11-28');

    const subject = 'Parley daily report — 27 Nov 2026';
    const recorded = await deliveries('daily', '2026-11-27');
    expect(recorded.map((d) => d.userId).sort()).toEqual([users.ada.id, users.bo.id].sort());
    expect(recorded.every((d) => d.clientId === null && d.emailId !== null)).toBe(true);
    // Quinn (off), Gail (disabled), the manager and the client user (not administrators) get nothing.
    expect(smtp.messages.filter((m) => subjectOf(m.raw) === subject).flatMap((m) => m.to).sort()).toEqual([users.ada.email, users.bo.email].sort());

    const [mail] = mails(users.ada.email, subject);
    expect(mail!.from).toBe('hello@parley.test');
    expect(mail!.raw).toMatch(/^List-Unsubscribe: <http:\/\/localhost:3000\/profile\?tab=notifications>/mu);
    expect(partOf(mail!.raw, 'text/plain')).toBe(
      [
        'Hi Ada Admin,',
        'Here are the figures of the conversations started on Friday 27 November 2026 (UTC) across every client, compared with the day before. Replies and resolutions count up to the time of this e-mail.',
        [
          'Conversations: 3 (day before: 1; +200%)',
          'Messages: 8 (day before: 2; +300%)',
          'Automated resolution rate: 33.3% (day before: 100%; −66.7 pp)',
          'Hand-off rate: 33.3% (day before: 0%; +33.3 pp)',
          // 30 s, 90 s and 600 s: the median is 90 s, written "2 min" as on the insights page.
          'Median first response: 2 min (day before: 1 min; +50%)',
          'Customer satisfaction: 3.5 / 5 from 2 ratings (day before: 4.0 / 5 from 1 rating; −13%)',
        ].join('\n'),
        [
          'Top clients by conversations:',
          `1. ${alpha.name}: 2 conversations, automated resolution 50%, median first response 1 min`,
          `2. ${beta.name}: 1 conversation, automated resolution 0%, median first response 10 min`,
        ].join('\n'),
        'Open the insights of that day: http://localhost:3000/insights?period=custom&from=2026-11-27&to=2026-11-27',
        '— Parley',
        'You get this e-mail because Daily Reports is on in your notification preferences. Manage e-mail notifications: http://localhost:3000/profile?tab=notifications',
      ].join('\n\n'),
    );
    const html = partOf(mail!.raw, 'text/html');
    expect(html).toContain('<th style="padding:4px 12px 4px 0;text-align:left;vertical-align:top">Day before</th>');
    expect(html).toContain('<a href="http://localhost:3000/insights?period=custom&amp;from=2026-11-27&amp;to=2026-11-27">Open the insights of that day</a>');
    expect(html).toContain('<a href="http://localhost:3000/profile?tab=notifications">Manage e-mail notifications</a>');

    // The run is recorded; the next is tomorrow's.
    const runs = await app.scheduler.runs(dailyReportJob.job.name);
    expect(runs.map((r) => r.period)).toContain('2026-11-28');
  });

  it('e-mails the weekly report, a client user’s with only their own client’s figures', async () => {
    await run(weeklyReportJob, '2026-W49');

    const recorded = await deliveries('weekly', '2026-W48');
    expect(recorded.map((d) => [d.userId, d.clientId]).sort()).toEqual(
      [
        [users.ada.id, null],
        [users.max.id, null],
        [users.alphaUser.id, alpha.id],
        [users.betaUser.id, beta.id],
      ].sort(),
    );
    const figures = (mail: ReceivedMail | undefined) => partOf(mail!.raw, 'text/plain').split('\n\n')[2];

    // Staff: every client. Week 48: 26 and 27 November; week 47: Beta's one conversation.
    const staffSubject = 'Parley weekly report — 23–29 Nov 2026';
    expect(mails(users.max.email, staffSubject)).toHaveLength(1);
    const staff = partOf(mails(users.ada.email, staffSubject)[0]!.raw, 'text/plain');
    expect(staff).toContain('Here are the figures of the conversations started in the week of 23–29 Nov 2026 (Monday to Sunday, UTC) across every client, compared with the week before.');
    expect(figures(mails(users.ada.email, staffSubject)[0])).toBe(
      [
        'Conversations: 4 (week before: 1; +300%)',
        'Messages: 10 (week before: 2; +400%)',
        'Automated resolution rate: 50% (week before: 0%; +50 pp)',
        'Hand-off rate: 25% (week before: 0%; +25 pp)',
        // 30, 60, 90 and 600 s: 75 s; the week before 120 s.
        'Median first response: 1 min (week before: 2 min; −38%)',
        'Customer satisfaction: 3.7 / 5 from 3 ratings (week before: no ratings)',
      ].join('\n'),
    );
    expect(staff).toContain(`1. ${alpha.name}: 3 conversations, automated resolution 66.7%, median first response 1 min\n2. ${beta.name}: 1 conversation`);
    expect(staff).toContain('Open the insights of that week: http://localhost:3000/insights?period=custom&from=2026-11-23&to=2026-11-29');
    expect(staff).toContain('You get this e-mail because Weekly Reports is on in your notification preferences.');

    // Alpha's user: Alpha's figures only, nothing the week before.
    const alphaMail = mails(users.alphaUser.email, `Parley weekly report for ${alpha.name} — 23–29 Nov 2026`);
    expect(alphaMail).toHaveLength(1);
    expect(partOf(alphaMail[0]!.raw, 'text/plain')).toContain(`in the week of 23–29 Nov 2026 (Monday to Sunday, UTC) for ${alpha.name}, compared with the week before.`);
    expect(figures(alphaMail[0])).toBe(
      [
        'Conversations: 3 (week before: 0; new)',
        'Messages: 8 (week before: 0; new)',
        'Automated resolution rate: 66.7% (week before: —)',
        'Hand-off rate: 33.3% (week before: —)',
        'Median first response: 1 min (week before: —)',
        'Customer satisfaction: 3.7 / 5 from 3 ratings (week before: no ratings)',
      ].join('\n'),
    );

    // Beta's user: Beta's figures, not a word of Alpha's.
    const betaMail = mails(users.betaUser.email, `Parley weekly report for ${beta.name} — 23–29 Nov 2026`);
    expect(betaMail).toHaveLength(1);
    expect(figures(betaMail[0])).toBe(
      [
        'Conversations: 1 (week before: 1; 0%)',
        'Messages: 2 (week before: 2; 0%)',
        'Automated resolution rate: 0% (week before: 0%; 0 pp)',
        'Hand-off rate: 0% (week before: 0%; 0 pp)',
        'Median first response: 10 min (week before: 2 min; +400%)',
        'Customer satisfaction: no ratings (week before: no ratings)',
      ].join('\n'),
    );
    for (const part of ['text/plain', 'text/html'] as const) {
      const text = partOf(betaMail[0]!.raw, part);
      expect(text).not.toContain(alpha.name);
      expect(text).not.toContain('Top clients');
    }
    // Switched off, or a client user without a client: nothing.
    expect(smtp.messages.some((m) => m.to.includes(users.betaQuiet.email) || m.to.includes(users.noClient.email) || m.to.includes(users.quinn.email))).toBe(false);
  });

  it('sends each report once with two instances running the same period at once, and not again after a restart', async () => {
    const subject = 'Parley daily report — 26 Nov 2026';
    // Both instances run the period at the same time: a job queued on each (no singleton key, as
    // if two schedulers had both queued it) and a direct call on each.
    await Promise.all([
      app.queue.enqueue(dailyReportJob.job, { period: '2026-11-27' }),
      other.queue.enqueue(dailyReportJob.job, { period: '2026-11-27' }),
      app.services.reportEmails.sendReports('daily', periodOf('day', '2026-11-26')),
      other.services.reportEmails.sendReports('daily', periodOf('day', '2026-11-26')),
    ]);
    await idle();
    expect((await deliveries('daily', '2026-11-26')).map((d) => d.userId).sort()).toEqual([users.ada.id, users.bo.id].sort());
    expect((await reportEmails(subject)).map((e) => e.toAddress).sort()).toEqual([users.ada.email, users.bo.email].sort());
    expect(mails(users.ada.email, subject)).toHaveLength(1);
    expect(mails(users.bo.email, subject)).toHaveLength(1);
    expect(partOf(mails(users.ada.email, subject)[0]!.raw, 'text/plain')).toContain('Conversations: 1 (day before: 0; new)');

    // A crash after the e-mails were queued but before the run was recorded: after a restart the
    // period's run comes again and finds every report sent.
    await app.database.db.deleteFrom('scheduledRuns').where('name', '=', dailyReportJob.job.name).where('period', '=', '2026-11-27').execute();
    const restarted = await createTestApp(engine, { env: { SMTP_URL: smtp.url, SMTP_FROM }, database: await secondInstance(app.database) });
    try {
      await restarted.queue.enqueue(dailyReportJob.job, { period: '2026-11-27' });
      await restarted.queue.waitForIdle(30_000);
      await idle();
      expect(await restarted.services.reportEmails.sendReports('daily', periodOf('day', '2026-11-26'))).toEqual({ sent: 0, alreadySent: 2, skipped: 0 });
    } finally {
      await restarted.destroy();
    }
    expect(await reportEmails(subject)).toHaveLength(2);
    expect(mails(users.ada.email, subject)).toHaveLength(1);
    expect(mails(users.bo.email, subject)).toHaveLength(1);
    expect((await app.scheduler.runs(dailyReportJob.job.name)).map((r) => r.period)).toContain('2026-11-27');
  });

  it('retries an SMTP failure on the one stored e-mail, and says when a day had no conversations', async () => {
    const subject = 'Parley daily report — 24 Nov 2026';
    smtp.failNext(1);
    await run(dailyReportJob, '2026-11-25');
    const stored = await reportEmails(subject);
    expect(stored).toHaveLength(2);
    // One of the two deliveries failed with the 451 and waits for its retry.
    const waiting = stored.filter((e) => e.status === 'queued');
    expect(waiting).toHaveLength(1);
    expect(waiting[0]).toMatchObject({ attempts: 1 });
    expect(waiting[0]!.lastError).toMatch(/451/u);

    await app.database.db.updateTable('jobs').set({ runAt: new Date() }).where('name', '=', 'email.deliver').where('status', '=', 'queued').execute();
    await idle();
    expect((await reportEmails(subject)).map((e) => e.status)).toEqual(['sent', 'sent']);
    expect(await deliveries('daily', '2026-11-24')).toHaveLength(2);
    expect(mails(users.ada.email, subject)).toHaveLength(1);
    expect(mails(users.bo.email, subject)).toHaveLength(1);
    const text = partOf(mails(users.ada.email, subject)[0]!.raw, 'text/plain');
    expect(text).toContain('No conversations started that day.\n\nConversations: 0 (day before: 0; 0%)');
    expect(text).not.toContain('Top clients');
  });

  it('sends nothing to someone who switched the report off', async () => {
    await app.services.users.setNotificationPreferences(users.ada.id, { ...DEFAULT_NOTIFICATION_PREFERENCES, dailyReports: false, weeklyReports: false });
    await run(dailyReportJob, '2026-11-24');
    expect((await deliveries('daily', '2026-11-23')).map((d) => d.userId)).toEqual([users.bo.id]);
    expect(mails(users.ada.email, 'Parley daily report — 23 Nov 2026')).toEqual([]);
    expect(mails(users.bo.email, 'Parley daily report — 23 Nov 2026')).toHaveLength(1);
  });

  it('makes up a run missed while every instance was down once, when two instances start together', async (context) => {
    // The scheduler makes up the current period's run at start once its due time (07:00 UTC) has
    // passed: the daily one after 07:00, else the weekly one after Monday 07:00. Only on Mondays
    // before 07:00 UTC has neither passed.
    const now = new Date();
    const kind = now.getTime() >= periodAt('day', now).start.getTime() + 7 * HOUR ? 'daily' : now.getTime() >= periodAt('week', now).start.getTime() + 7 * HOUR ? 'weekly' : null;
    if (kind === null) return context.skip();
    const definition = kind === 'daily' ? dailyReportJob : weeklyReportJob;
    const name = definition.job.name;
    const current = periodAt(definition.every, now);
    const covered = reportedPeriod(kind, current);
    // The schedule ran the period before the current one; the current one was missed.
    const db = app.database.db;
    await db.deleteFrom('jobs').where('name', '=', name).where('status', '=', 'queued').execute();
    await db.deleteFrom('scheduledRuns').where('name', '=', name).execute();
    await db.insertInto('scheduledRuns').values({ name, period: periodAt(definition.every, new Date(current.start.getTime() - 1)).key }).execute();
    await db.deleteFrom('reportDeliveries').where('kind', '=', kind).where('period', '=', covered.key).execute();
    // The e-mails of this kind already queued (by the tests before): only new ones count.
    const earlier = new Set((await db.selectFrom('emails').select('id').where('kind', '=', `${kind}-report`).execute()).map((e) => e.id));

    const env = { SMTP_URL: smtp.url, SMTP_FROM };
    const started = await Promise.all([
      createTestApp(engine, { env, database: await secondInstance(app.database) }),
      createTestApp(engine, { env, database: await secondInstance(app.database) }),
    ]);
    try {
      const deadline = Date.now() + 30_000;
      while (!(await app.scheduler.runs(name)).some((r) => r.period === current.key) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      await Promise.all(started.map((instance) => instance.queue.waitForIdle(30_000)));
      await idle();
    } finally {
      await Promise.all(started.map((instance) => instance.destroy()));
    }
    // Ada switched both reports off in the test before.
    const expected = kind === 'daily' ? [users.bo] : [users.max, users.alphaUser, users.betaUser];
    expect((await deliveries(kind, covered.key)).map((d) => d.userId).sort()).toEqual(expected.map((u) => u.id).sort());
    const queued = (await db.selectFrom('emails').select(['id', 'toAddress']).where('kind', '=', `${kind}-report`).execute()).filter((e) => !earlier.has(e.id));
    expect(queued.map((e) => e.toAddress).sort()).toEqual(expected.map((u) => u.email).sort());
    expect((await app.scheduler.runs(name)).filter((r) => r.period === current.key)).toHaveLength(1);
  });
});
