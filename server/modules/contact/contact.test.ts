/**
 * The contact form and the administrators' messages (issue 15) on both engines, through the app's
 * HTTP handler, with a real SMTP server on loopback: a message is stored before the 201 with its
 * notifications, e-mails and live event, or not at all; bots are answered like people and dropped;
 * each IP is limited in the database; replies are e-mailed from Parley and recorded.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACT_MESSAGES_PAGE, type ContactMessage, type ContactMessageDetail } from '../../../common/api/contact';
import { SCRIPT_LIKE_MESSAGE } from '../../../common/validation/sanitize';
import { createTestApp, signedInClient, type TestApp, type TestClient } from '../../../test/helpers/app';
import { ENGINES, secondInstance } from '../../../test/helpers/database';
import { connectRealtime, cookieHeader } from '../../../test/helpers/realtime';
import { startSmtpServer, type TestSmtpServer } from '../../../test/helpers/smtp';
import { CSRF_COOKIE, CSRF_HEADER } from '../../http/csrf';

/** The message as a reader sees it: header folding, quoted-printable soft breaks and escapes undone. */
function readable(raw: string): string {
  const unfolded = raw.replace(/\r?\n[ \t]+/gu, ' ');
  const joined = unfolded.replace(/=\r?\n/gu, '');
  return Buffer.from(joined.replace(/=([0-9A-F]{2})/gu, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8');
}

let ipCounter = 0;
/** A fresh client address per test, so the per-IP limit only bites where a test means it to. */
const nextIp = () => `198.51.100.${++ipCounter}`;
let emailCounter = 0;
const uniqueEmail = (stem: string) => `${stem}-${++emailCounter}-${Math.random().toString(36).slice(2, 8)}@example.com`;

function form(overrides: Record<string, unknown> = {}) {
  return { firstName: 'Ana', lastName: 'Lima', email: uniqueEmail('ana'), company: 'Lima Bikes', message: 'Do you connect WhatsApp?\nWe have two shops.', ...overrides };
}

describe.each(ENGINES)('contact form and messages (%s)', (engine) => {
  let smtp: TestSmtpServer;
  let app: TestApp;
  let base: string;
  let admin: { client: TestClient; userId: string; email: string };
  let quietAdmin: { client: TestClient; userId: string; email: string };
  let manager: { client: TestClient; userId: string; email: string };
  let clientUser: { client: TestClient; userId: string; email: string };

  /** A visitor's POST (no session; the page's CSRF cookie and header), from `ip`. */
  const visitorPost = (url: string, body: unknown, ip: string, targetApp: TestApp = app) =>
    targetApp.inject({
      method: 'POST',
      url,
      remoteAddress: ip,
      headers: { 'content-type': 'application/json', cookie: `${CSRF_COOKIE}=page-token`, [CSRF_HEADER]: 'page-token' },
      payload: JSON.stringify(body),
    });
  const send = (body: unknown, ip = nextIp()) => visitorPost('/api/v1/public/contact', body, ip);

  const storedByEmail = (email: string) => app.database.db.selectFrom('contactMessages').selectAll().where('email', '=', email).execute();
  const notificationsAbout = (title: string) => app.database.db.selectFrom('notifications').selectAll().where('title', '=', title).execute();
  const emailsTo = (to: string, kind?: string) => {
    let query = app.database.db.selectFrom('emails').selectAll().where('toAddress', '=', to);
    if (kind) query = query.where('kind', '=', kind);
    return query.execute();
  };

  beforeAll(async () => {
    smtp = await startSmtpServer();
    app = await createTestApp(engine, { env: { SMTP_URL: smtp.url, SMTP_FROM: 'Parley <hello@parley.test>' } });
    await app.server.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.server.address();
    if (typeof address !== 'object' || address === null) throw new Error('no address');
    base = `http://127.0.0.1:${address.port}`;
    admin = await signedInClient(app, 'admin', { name: 'Ada Admin' });
    quietAdmin = await signedInClient(app, 'admin', { name: 'Quinn Quiet' });
    manager = await signedInClient(app, 'manager');
    clientUser = await signedInClient(app, 'client');
    const preferences = { emailNotifications: false, messageAlerts: true, weeklyReports: false, securityAlerts: true };
    expect((await quietAdmin.client.put('/api/v1/me/notification-preferences', preferences)).statusCode).toBe(200);
  });
  afterAll(async () => {
    await app.destroy();
    await smtp.close();
  });

  it('stores the message before answering 201, tells every administrator in the app and by e-mail (when they take e-mail), and nobody else', async () => {
    const body = form();
    const response = await send(body);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ ok: true });

    // Already stored when the answer came: no job stands between the request and the row.
    const [stored] = await storedByEmail(body.email);
    expect(stored).toMatchObject({ firstName: 'Ana', lastName: 'Lima', company: 'Lima Bikes', message: body.message, readAt: null, readBy: null });

    const notified = await notificationsAbout('New message from Ana Lima');
    const notifiedIds = notified.map((n) => n.userId);
    expect(notifiedIds).toEqual(expect.arrayContaining([admin.userId, quietAdmin.userId]));
    expect(notifiedIds).not.toContain(manager.userId);
    expect(notifiedIds).not.toContain(clientUser.userId);
    expect(notified.find((n) => n.userId === admin.userId)).toMatchObject({
      kind: 'contact.message',
      body: 'Do you connect WhatsApp? We have two shops.',
      link: CONTACT_MESSAGES_PAGE,
      readAt: null,
    });

    // In the outbox with the message (its body may already be delivered and dropped: SMTP is fast).
    expect(await emailsTo(admin.email, 'contact-message')).toEqual([expect.objectContaining({ subject: 'New contact message from Ana Lima' })]);
    expect(await emailsTo(quietAdmin.email, 'contact-message')).toEqual([]);
    expect(await emailsTo(manager.email, 'contact-message')).toEqual([]);

    await app.queue.waitForIdle();
    const delivered = smtp.messages.filter((m) => m.to.includes(admin.email));
    expect(delivered).toHaveLength(1);
    const mail = readable(delivered[0]!.raw);
    expect(mail).toContain('Subject: New contact message from Ana Lima');
    expect(mail).toContain(`Reply-To: ${body.email}`);
    expect(mail).toContain(`Ana Lima <${body.email}> (Lima Bikes) wrote through the contact form:`);
    expect(mail).toContain('Do you connect WhatsApp?\r\nWe have two shops.');
  });

  it('trims and lower-cases, keeps no empty company, and strips what part 1 §5 removes', async () => {
    const email = uniqueEmail('Mixed.Case');
    const response = await send(form({ firstName: '  Bo ', email: `  ${email.toUpperCase()} `, company: '   ', message: 'Hello <b>there</b> javascript:alert(1) onclick=x' }));
    expect(response.statusCode).toBe(201);
    const [stored] = await storedByEmail(email.toLowerCase());
    expect(stored).toMatchObject({ firstName: 'Bo', company: null, message: 'Hello bthere/b alert(1) x' });
  });

  it('refuses invalid forms with every field’s message and stores nothing', async () => {
    const before = await app.database.db.selectFrom('contactMessages').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    const fieldsOf = async (body: unknown) => {
      const response = await send(body);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('VALIDATION_ERROR');
      return response.json<{ error: { fields: Record<string, string> } }>().error.fields;
    };
    expect(await fieldsOf({})).toEqual({
      firstName: 'First name is required',
      lastName: 'Last name is required',
      email: 'Email is required',
      message: 'Message is required',
    });
    expect(await fieldsOf({ firstName: '   ', lastName: ' ', email: ' ', message: '  ' })).toEqual({
      firstName: 'First name is required',
      lastName: 'Last name is required',
      email: 'Email is required',
      message: 'Message is required',
    });
    expect(
      await fieldsOf(form({ firstName: 'A'.repeat(101), lastName: 'L'.repeat(101), company: 'C'.repeat(201), message: 'm'.repeat(5001), email: 'not-an-email' })),
    ).toEqual({
      firstName: 'First name is too long',
      lastName: 'Last name is too long',
      company: 'Company is too long',
      message: 'Message must be at most 5000 characters',
      email: 'Please enter a valid email address',
    });
    expect(await fieldsOf(form({ email: `${'e'.repeat(250)}@example.com` }))).toEqual({ email: 'Email is too long' });
    expect(await fieldsOf(form({ email: 'someone@mailinator.com' }))).toEqual({ email: 'Please use a valid email address' });
    expect(await fieldsOf(form({ message: 'Hi <script>alert(1)</script>', firstName: '<iframe src=x>' }))).toEqual({
      message: SCRIPT_LIKE_MESSAGE,
      firstName: SCRIPT_LIKE_MESSAGE,
    });
    const after = await app.database.db.selectFrom('contactMessages').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('answers a filled honeypot like a success and stores, notifies and e-mails nothing', async () => {
    const body = form({ lastName: 'Honeypot', website: 'https://spam.example' });
    const response = await send(body);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ ok: true });
    expect(await storedByEmail(body.email)).toEqual([]);
    expect(await notificationsAbout('New message from Ana Honeypot')).toEqual([]);
    expect(await app.database.db.selectFrom('emails').select('id').where('textBody', 'like', `%${body.email}%`).execute()).toEqual([]);
  });

  it('answers a form sent within 3 s of being shown like a success and drops it; keeps slower ones, ones without shownAt and ones from a page whose clock runs ahead', async () => {
    const ip = nextIp();
    const tooFast = form({ lastName: 'Quick', shownAt: Date.now() - 1_000 });
    const response = await send(tooFast, ip);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ ok: true });
    expect(await storedByEmail(tooFast.email)).toEqual([]);
    expect(await notificationsAbout('New message from Ana Quick')).toEqual([]);

    for (const shownAt of [Date.now() - 5_000, undefined, Date.now() + 60_000]) {
      const body = form({ shownAt });
      expect((await send(body, ip)).statusCode).toBe(201);
      expect(await storedByEmail(body.email)).toHaveLength(1);
    }
  });

  it('limits each IP to 5 forms per 10 minutes in the database, for every instance: the 6th gets 429 with Retry-After', async () => {
    const ip = nextIp();
    for (let i = 0; i < 5; i += 1) expect((await send(form(), ip)).statusCode).toBe(201);

    // A second instance on the same database sees the same counter.
    const other = await createTestApp(engine, { database: await secondInstance(app.database), startJobs: false });
    try {
      const refused = await visitorPost('/api/v1/public/contact', form({ lastName: 'Sixth' }), ip, other);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error).toMatchObject({ code: 'RATE_LIMITED', message: 'Too many messages from your network. Please try again in 10 minute(s).' });
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(590);
      expect(retryAfter).toBeLessThanOrEqual(600);
    } finally {
      await other.destroy();
    }
    expect(await notificationsAbout('New message from Ana Sixth')).toEqual([]);
    // A honeypot does not get around the limit either, and another address is not affected.
    expect((await send(form({ website: 'x' }), ip)).statusCode).toBe(429);
    expect((await send(form(), nextIp())).statusCode).toBe(201);

    // Only a keyed hash of the address is stored; once the window is over, the IP may send again.
    const counters = await app.database.db.selectFrom('contactRateLimits').selectAll().where('key', 'like', 'contact:%').execute();
    expect(counters.some((c) => c.key.includes(ip))).toBe(false);
    expect(counters.some((c) => c.hits >= 7)).toBe(true);
    await app.database.db
      .updateTable('contactRateLimits')
      .set({ windowStartedAt: sql<Date>`window_started_at - interval '11 minutes'` })
      .where('hits', '>=', 7)
      .execute();
    expect((await send(form(), ip)).statusCode).toBe(201);
  });

  it('stores nothing at all when a step of the transaction fails (the administrators’ e-mail here)', async () => {
    await sql`create function contact_test_refuse_email() returns trigger language plpgsql as $$ begin raise exception 'outbox refused'; end $$`.execute(app.database.db);
    await sql`create trigger contact_test_refuse_email before insert on emails for each row when (new.kind = 'contact-message') execute function contact_test_refuse_email()`.execute(
      app.database.db,
    );
    try {
      const body = form({ lastName: 'Halfway' });
      const response = await send(body);
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ error: { code: 'INTERNAL', message: 'Internal server error' } });
      expect(await storedByEmail(body.email)).toEqual([]);
      expect(await notificationsAbout('New message from Ana Halfway')).toEqual([]);
    } finally {
      await sql`drop trigger contact_test_refuse_email on emails`.execute(app.database.db);
      await sql`drop function contact_test_refuse_email()`.execute(app.database.db);
    }
  });

  it('pushes a new message to administrators subscribed to contact-messages, and to nobody else', async () => {
    const adminSocket = await connectRealtime(base, { cookie: cookieHeader(admin.client.cookies) });
    const managerSocket = await connectRealtime(base, { cookie: cookieHeader(manager.client.cookies) });
    try {
      expect(await adminSocket.subscribe('contact-messages')).toMatchObject({ type: 'subscribed', topic: 'contact-messages' });
      expect(await managerSocket.subscribe('contact-messages')).toMatchObject({ type: 'error', code: 'NOT_FOUND' });
      const body = form({ lastName: 'Live' });
      expect((await send(body)).statusCode).toBe(201);
      const event = await adminSocket.next((m) => m.type === 'event' && m.event === 'contact_message.created' && (m.data as ContactMessage).email === body.email);
      expect(event).toMatchObject({ topic: 'contact-messages', data: { firstName: 'Ana', lastName: 'Live', read: false, replyCount: 0, company: 'Lima Bikes' } });
      expect(managerSocket.messages.some((m) => m.type === 'event' && m.event === 'contact_message.created')).toBe(false);
    } finally {
      adminSocket.close();
      managerSocket.close();
    }
  });

  it('lists messages newest first with the unread count; opening one marks it read once, by its first reader', async () => {
    const older = form({ lastName: 'Older' });
    const newer = form({ lastName: 'Newer' });
    expect((await send(older)).statusCode).toBe(201);
    expect((await send(newer)).statusCode).toBe(201);
    await sql`update contact_messages set created_at = created_at - interval '1 second' where email = ${older.email}`.execute(app.database.db);

    const list = await admin.client.get('/api/v1/contact-messages');
    expect(list.statusCode).toBe(200);
    const { messages, unreadCount } = list.json<{ messages: ContactMessage[]; unreadCount: number }>();
    const [unread] = await app.database.db.selectFrom('contactMessages').select((eb) => eb.fn.countAll<string>().as('n')).where('readAt', 'is', null).execute();
    expect(unreadCount).toBe(Number(unread?.n));
    const times = messages.map((m) => m.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    expect(messages.findIndex((m) => m.email === newer.email)).toBeLessThan(messages.findIndex((m) => m.email === older.email));
    const listed = messages.find((m) => m.email === newer.email)!;
    expect(listed).toEqual({
      id: expect.any(String),
      firstName: 'Ana',
      lastName: 'Newer',
      email: newer.email,
      company: 'Lima Bikes',
      message: newer.message,
      createdAt: expect.any(String),
      read: false,
      readAt: null,
      replyCount: 0,
    });

    const opened = await admin.client.get(`/api/v1/contact-messages/${listed.id}`);
    expect(opened.statusCode).toBe(200);
    const detail = opened.json<ContactMessageDetail>();
    expect(detail).toMatchObject({ id: listed.id, read: true, replies: [] });
    expect(detail.readAt).not.toBeNull();
    expect((await admin.client.get('/api/v1/contact-messages')).json<{ unreadCount: number }>().unreadCount).toBe(unreadCount - 1);

    // Opening again (or by another administrator) changes nothing.
    const again = (await quietAdmin.client.get(`/api/v1/contact-messages/${listed.id}`)).json<ContactMessageDetail>();
    expect(again.readAt).toBe(detail.readAt);
    expect((await admin.client.get('/api/v1/contact-messages')).json<{ unreadCount: number }>().unreadCount).toBe(unreadCount - 1);
    const row = await app.database.db.selectFrom('contactMessages').select(['readBy']).where('id', '=', listed.id).executeTakeFirstOrThrow();
    expect(row.readBy).toBe(admin.userId);
  });

  it('deletes a message (204) and answers 404 for it afterwards and for unknown ids, 400 for malformed ones', async () => {
    const body = form({ lastName: 'Deleted' });
    expect((await send(body)).statusCode).toBe(201);
    const [stored] = await storedByEmail(body.email);
    const deleted = await admin.client.delete(`/api/v1/contact-messages/${stored!.id}`);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expect(await storedByEmail(body.email)).toEqual([]);
    expect((await admin.client.get('/api/v1/contact-messages')).json<{ messages: ContactMessage[] }>().messages.some((m) => m.id === stored!.id)).toBe(false);
    expect((await admin.client.delete(`/api/v1/contact-messages/${stored!.id}`)).statusCode).toBe(404);
    expect((await admin.client.get(`/api/v1/contact-messages/${stored!.id}`)).statusCode).toBe(404);
    const malformed = await admin.client.get('/api/v1/contact-messages/not-an-id');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.fields).toEqual({ id: 'Unknown message' });
  });

  it('replies by e-mail from Parley, quoting the message, and records the reply with its outbox e-mail in the same transaction', async () => {
    const body = form({ lastName: 'Replied', message: 'First line\nSecond line' });
    expect((await send(body)).statusCode).toBe(201);
    const [stored] = await storedByEmail(body.email);

    const replied = await admin.client.post(`/api/v1/contact-messages/${stored!.id}/reply`, { body: '  Hi Ana,\n\nyes, WhatsApp works today.  ' });
    expect(replied.statusCode).toBe(201);
    const detail = replied.json<ContactMessageDetail>();
    expect(detail).toMatchObject({ id: stored!.id, read: true, replyCount: 1 });
    expect(detail.replies).toEqual([
      { id: expect.any(String), body: 'Hi Ana,\n\nyes, WhatsApp works today.', sentAt: expect.any(String), sentBy: { id: admin.userId, name: 'Ada Admin' }, emailId: expect.any(String) },
    ]);
    const email = await app.database.db.selectFrom('emails').selectAll().where('id', '=', detail.replies[0]!.emailId!).executeTakeFirstOrThrow();
    expect(email).toMatchObject({ kind: 'contact-reply', toAddress: body.email, subject: 'Re: your message to Parley' });

    await app.queue.waitForIdle();
    const delivered = smtp.messages.filter((m) => m.to.includes(body.email));
    expect(delivered).toHaveLength(1);
    const mail = readable(delivered[0]!.raw);
    expect(mail).toContain('Subject: Re: your message to Parley');
    expect(mail).toContain('yes, WhatsApp works today.');
    expect(mail).toContain('> First line\n> Second line'.replaceAll('\n', '\r\n'));
    expect(await app.database.db.selectFrom('emails').select('status').where('id', '=', email.id).executeTakeFirstOrThrow()).toEqual({ status: 'sent' });

    // The list and a later opening show the reply.
    expect((await admin.client.get('/api/v1/contact-messages')).json<{ messages: ContactMessage[] }>().messages.find((m) => m.id === stored!.id)?.replyCount).toBe(1);
    expect((await admin.client.get(`/api/v1/contact-messages/${stored!.id}`)).json<ContactMessageDetail>().replies).toHaveLength(1);
  });

  it('refuses an empty or too long reply and a reply to an unknown message, sending nothing', async () => {
    const body = form({ lastName: 'NoReply' });
    expect((await send(body)).statusCode).toBe(201);
    const [stored] = await storedByEmail(body.email);
    const empty = await admin.client.post(`/api/v1/contact-messages/${stored!.id}/reply`, { body: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.fields).toEqual({ body: 'Reply is required' });
    expect((await admin.client.post(`/api/v1/contact-messages/${stored!.id}/reply`, {})).json().error.fields).toEqual({ body: 'Reply is required' });
    expect((await admin.client.post(`/api/v1/contact-messages/${stored!.id}/reply`, { body: 'x'.repeat(10_001) })).json().error.fields).toEqual({ body: 'Reply is too long' });
    const unknown = await admin.client.post('/api/v1/contact-messages/00000000-0000-4000-8000-000000000000/reply', { body: 'Hello' });
    expect(unknown.statusCode).toBe(404);
    expect(await emailsTo(body.email)).toEqual([]);
    expect(await app.database.db.selectFrom('contactReplies').select('id').where('messageId', '=', stored!.id).execute()).toEqual([]);
  });

  it('lets only administrators at the messages: 403 for managers and client users, 401 signed out', async () => {
    const body = form({ lastName: 'Guarded' });
    expect((await send(body)).statusCode).toBe(201);
    const [stored] = await storedByEmail(body.email);
    const calls = [
      (c: TestClient) => c.get('/api/v1/contact-messages'),
      (c: TestClient) => c.get(`/api/v1/contact-messages/${stored!.id}`),
      (c: TestClient) => c.delete(`/api/v1/contact-messages/${stored!.id}`),
      (c: TestClient) => c.post(`/api/v1/contact-messages/${stored!.id}/reply`, { body: 'Hi' }),
    ];
    for (const call of calls) {
      expect((await call(manager.client)).statusCode).toBe(403);
      expect((await call(clientUser.client)).statusCode).toBe(403);
      expect((await call(app.client())).statusCode).toBe(401);
    }
    const [after] = await storedByEmail(body.email);
    expect(after).toMatchObject({ readAt: null });
    expect(await emailsTo(body.email)).toEqual([]);
  });
});
