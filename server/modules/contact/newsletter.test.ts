/**
 * The newsletter's double opt-in (issue 15) on both engines: the same answer for every address, a
 * confirmation e-mail with a confirm link and an unsubscribe link (body and List-Unsubscribe
 * headers), confirm, unsubscribe by link and by RFC 8058 one-click POST, no spam on repeats, the
 * administrators' list and CSV export. E-mails are read from the outbox; one block delivers them to
 * a real SMTP server on loopback to see the headers arrive.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NEWSLETTER_ACCEPTED_MESSAGE, NEWSLETTER_UNSUBSCRIBED_MESSAGE, type NewsletterSubscribersResponse } from '../../../common/api/contact';
import { createTestApp, signedInClient, type TestApp, type TestClient } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import { tokenFrom } from '../../../test/helpers/mail';
import { startSmtpServer, type TestSmtpServer } from '../../../test/helpers/smtp';
import { CSRF_COOKIE, CSRF_HEADER } from '../../http/csrf';
import { sha256Hex } from '../../lib/crypto';
import { DELIVERED_BODY_PLACEHOLDER } from '../email/email.service';

let ipCounter = 0;
const nextIp = () => `203.0.113.${++ipCounter}`;
let emailCounter = 0;
const uniqueEmail = (stem: string) => `${stem}-${++emailCounter}-${Math.random().toString(36).slice(2, 8)}@example.com`;

/** A visitor's POST to the newsletter box (no session; the page's CSRF cookie and header). */
function subscribe(app: TestApp, body: unknown, ip = nextIp()) {
  return app.inject({
    method: 'POST',
    url: '/api/v1/public/newsletter',
    remoteAddress: ip,
    headers: { 'content-type': 'application/json', cookie: `${CSRF_COOKIE}=page-token`, [CSRF_HEADER]: 'page-token' },
    payload: JSON.stringify(body),
  });
}

/** The newsletter e-mails to an address, oldest first, with their links. */
async function newsletterEmails(app: TestApp, to: string) {
  const rows = await app.database.db
    .selectFrom('emails')
    .selectAll()
    .where('toAddress', '=', to)
    .where('kind', '=', 'newsletter-confirm')
    .orderBy('createdAt')
    .execute();
  return rows.map((row) => ({
    ...row,
    confirmUrl: /https?:\/\/\S+\/newsletter\/confirm\?token=\S+/u.exec(row.textBody)?.[0],
    unsubscribeUrl: /https?:\/\/\S+\/newsletter\/unsubscribe\?token=\S+/u.exec(row.textBody)?.[0],
  }));
}

const subscriber = (app: TestApp, email: string) => app.database.db.selectFrom('newsletterSubscribers').selectAll().where('email', '=', email).executeTakeFirst();

/** A GET of a link from an e-mail (a browser: no cookies), as path and query. */
function follow(app: TestApp, url: string | undefined, method: 'GET' | 'HEAD' = 'GET') {
  if (!url) throw new Error('no link');
  const { pathname, search } = new URL(url);
  return app.inject({ method, url: `${pathname}${search}` });
}

/** A mail provider's one-click unsubscribe (RFC 8058): a form POST to the List-Unsubscribe URL. */
function oneClick(app: TestApp, url: string, contentType = 'application/x-www-form-urlencoded', payload = 'List-Unsubscribe=One-Click') {
  const { pathname, search } = new URL(url);
  return app.inject({ method: 'POST', url: `${pathname}${search}`, headers: { 'content-type': contentType }, payload });
}

/** Subscribes an address and returns its confirmation e-mail. */
async function subscribed(app: TestApp, email: string) {
  expect((await subscribe(app, { email })).statusCode).toBe(202);
  await app.queue.waitForIdle();
  const mails = await newsletterEmails(app, email);
  return mails[mails.length - 1]!;
}

describe.each(ENGINES)('newsletter double opt-in (%s)', (engine) => {
  let app: TestApp;

  beforeAll(async () => {
    app = await createTestApp(engine);
  });
  afterAll(async () => {
    await app.destroy();
  });

  it('answers 202 and sends a confirmation e-mail with a confirm link and an unsubscribe link (body and List-Unsubscribe headers); confirming subscribes', async () => {
    const email = uniqueEmail('reader');
    const response = await subscribe(app, { email: `  ${email.toUpperCase()} ` });
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ message: NEWSLETTER_ACCEPTED_MESSAGE });
    await app.queue.waitForIdle();

    const [mail, ...more] = await newsletterEmails(app, email);
    expect(more).toEqual([]);
    expect(mail).toMatchObject({ subject: 'Confirm your subscription to the Parley newsletter', status: 'stored' });
    expect(mail!.confirmUrl).toMatch(/^http:\/\/localhost:3000\/newsletter\/confirm\?token=[A-Za-z0-9_-]{43}$/u);
    expect(mail!.unsubscribeUrl).toMatch(/^http:\/\/localhost:3000\/newsletter\/unsubscribe\?token=[0-9a-f]{64}$/u);
    expect(mail!.headers).toEqual({ 'List-Unsubscribe': `<${mail!.unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
    expect(mail!.htmlBody).toContain(`href="${mail!.unsubscribeUrl}"`);

    // Pending, with only the tokens' sha256 stored; the job kept no address once done.
    const pending = await subscriber(app, email);
    const confirmToken = tokenFrom(mail!.confirmUrl);
    const unsubscribeToken = tokenFrom(mail!.unsubscribeUrl);
    expect(pending).toMatchObject({ status: 'pending', confirmedAt: null, confirmTokenHash: sha256Hex(confirmToken), unsubscribeTokenHash: sha256Hex(unsubscribeToken) });
    expect(JSON.stringify(pending)).not.toContain(confirmToken);
    expect(JSON.stringify(pending)).not.toContain(unsubscribeToken);
    expect(pending!.confirmExpiresAt!.getTime() - pending!.confirmSentAt!.getTime()).toBe(7 * 24 * 60 * 60_000);
    const jobs = await app.database.db.selectFrom('jobs').select(['payload', 'status']).where('name', '=', 'contact.newsletter-subscribe').execute();
    expect(jobs.length).toBeGreaterThan(0);
    expect(jobs.every((j) => j.status === 'completed' && JSON.stringify(j.payload) === '{}')).toBe(true);

    const confirmed = await follow(app, mail!.confirmUrl);
    expect(confirmed.statusCode).toBe(303);
    expect(confirmed.headers.location).toBe('/blog?newsletter=confirmed');
    const row = await subscriber(app, email);
    expect(row).toMatchObject({ status: 'subscribed', unsubscribedAt: null });
    expect(row!.confirmedAt).toBeInstanceOf(Date);

    // The link again: still confirmed, first confirmation kept.
    expect((await follow(app, mail!.confirmUrl)).headers.location).toBe('/blog?newsletter=confirmed');
    expect((await subscriber(app, email))!.confirmedAt).toEqual(row!.confirmedAt);
  });

  it('redirects unknown, missing and expired confirmation links to =invalid and subscribes nobody; a HEAD does not confirm', async () => {
    expect((await app.inject({ method: 'GET', url: '/newsletter/confirm?token=not-a-token' })).headers.location).toBe('/blog?newsletter=invalid');
    const missing = await app.inject({ method: 'GET', url: '/newsletter/confirm' });
    expect(missing.statusCode).toBe(303);
    expect(missing.headers.location).toBe('/blog?newsletter=invalid');

    const email = uniqueEmail('late');
    const mail = await subscribed(app, email);
    const head = await follow(app, mail.confirmUrl, 'HEAD');
    expect(head.statusCode).toBe(404);
    expect((await subscriber(app, email))!.status).toBe('pending');

    await sql`update newsletter_subscribers set confirm_expires_at = now() - interval '1 minute' where email = ${email}`.execute(app.database.db);
    expect((await follow(app, mail.confirmUrl)).headers.location).toBe('/blog?newsletter=invalid');
    expect((await subscriber(app, email))!.status).toBe('pending');
  });

  it('answers repeated requests the same and does not spam: one e-mail per address per 10 minutes, none once subscribed; a newer link replaces the older', async () => {
    const email = uniqueEmail('eager');
    const first = await subscribe(app, { email });
    const second = await subscribe(app, { email });
    expect([first.statusCode, second.statusCode]).toEqual([202, 202]);
    expect(second.body).toBe(first.body);
    await app.queue.waitForIdle();
    expect((await subscribe(app, { email })).body).toBe(first.body);
    await app.queue.waitForIdle();
    expect(await newsletterEmails(app, email)).toHaveLength(1);

    // Ten minutes later a new request sends a new link, and the older one stops working.
    await sql`update newsletter_subscribers set confirm_sent_at = confirm_sent_at - interval '11 minutes' where email = ${email}`.execute(app.database.db);
    await subscribe(app, { email });
    await app.queue.waitForIdle();
    const [older, newer] = await newsletterEmails(app, email);
    expect(newer).toBeDefined();
    expect(newer!.confirmUrl).not.toBe(older!.confirmUrl);
    expect(newer!.unsubscribeUrl).toBe(older!.unsubscribeUrl);
    expect((await follow(app, older!.confirmUrl)).headers.location).toBe('/blog?newsletter=invalid');
    expect((await follow(app, newer!.confirmUrl)).headers.location).toBe('/blog?newsletter=confirmed');

    // Subscribed: the same answer as for a new address, and nothing is sent.
    await sql`update newsletter_subscribers set confirm_sent_at = confirm_sent_at - interval '11 minutes' where email = ${email}`.execute(app.database.db);
    const again = await subscribe(app, { email });
    const brandNew = await subscribe(app, { email: uniqueEmail('new') });
    expect(again.statusCode).toBe(202);
    expect(again.body).toBe(brandNew.body);
    await app.queue.waitForIdle();
    expect(await newsletterEmails(app, email)).toHaveLength(2);
  });

  it('unsubscribes by the link (303 =unsubscribed, again is fine) and voids the confirmation link; a new request can subscribe again', async () => {
    const email = uniqueEmail('leaving');
    const mail = await subscribed(app, email);
    expect((await follow(app, mail.confirmUrl)).headers.location).toBe('/blog?newsletter=confirmed');

    const left = await follow(app, mail.unsubscribeUrl);
    expect(left.statusCode).toBe(303);
    expect(left.headers.location).toBe('/blog?newsletter=unsubscribed');
    const row = await subscriber(app, email);
    expect(row).toMatchObject({ status: 'unsubscribed', confirmTokenHash: null });
    expect(row!.unsubscribedAt).toBeInstanceOf(Date);
    expect((await follow(app, mail.unsubscribeUrl)).headers.location).toBe('/blog?newsletter=unsubscribed');
    expect((await subscriber(app, email))!.unsubscribedAt).toEqual(row!.unsubscribedAt);
    // The confirmation link no longer subscribes.
    expect((await follow(app, mail.confirmUrl)).headers.location).toBe('/blog?newsletter=invalid');
    expect((await subscriber(app, email))!.status).toBe('unsubscribed');
    expect((await app.inject({ method: 'GET', url: `/newsletter/unsubscribe?token=${'0'.repeat(64)}` })).headers.location).toBe('/blog?newsletter=invalid');

    // Asking again sends a new confirmation at once (the last one was voided), and confirming subscribes.
    const back = await subscribed(app, email);
    expect(back.confirmUrl).not.toBe(mail.confirmUrl);
    expect((await subscriber(app, email))!.status).toBe('unsubscribed');
    expect((await follow(app, back.confirmUrl)).headers.location).toBe('/blog?newsletter=confirmed');
    expect(await subscriber(app, email)).toMatchObject({ status: 'subscribed', unsubscribedAt: null });
  });

  it('takes an RFC 8058 one-click POST to the List-Unsubscribe URL without a session or CSRF token (form or multipart), and 404 for an unknown link', async () => {
    const email = uniqueEmail('oneclick');
    const mail = await subscribed(app, email);
    await follow(app, mail.confirmUrl);
    const url = /^<(.+)>$/u.exec(mail.headers!['List-Unsubscribe']!)![1]!;

    const response = await oneClick(app, url);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: NEWSLETTER_UNSUBSCRIBED_MESSAGE });
    expect((await subscriber(app, email))!.status).toBe('unsubscribed');

    const boundary = 'parley-boundary';
    const multipart = `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`;
    expect((await oneClick(app, url, `multipart/form-data; boundary=${boundary}`, multipart)).statusCode).toBe(200);

    const unknown = await oneClick(app, `http://localhost:3000/newsletter/unsubscribe?token=${'f'.repeat(64)}`);
    expect(unknown.statusCode).toBe(404);
    expect((await app.inject({ method: 'POST', url: '/newsletter/unsubscribe' })).statusCode).toBe(404);
  });

  it('answers a filled honeypot like any request and does nothing', async () => {
    const email = uniqueEmail('bot');
    const response = await subscribe(app, { email, website: 'https://spam.example' });
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ message: NEWSLETTER_ACCEPTED_MESSAGE });
    await app.queue.waitForIdle();
    expect(await subscriber(app, email)).toBeUndefined();
    expect(await newsletterEmails(app, email)).toEqual([]);
  });

  it('refuses an invalid address with its message', async () => {
    for (const [body, message] of [
      [{}, 'Email is required'],
      [{ email: '  ' }, 'Email is required'],
      [{ email: 'nope' }, 'Please enter a valid email address'],
      [{ email: 'x@yopmail.com' }, 'Please use a valid email address'],
    ] as const) {
      const response = await subscribe(app, body);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.fields).toEqual({ email: message });
    }
  });

  it('limits each IP to 5 requests per 10 minutes: the 6th gets 429 with Retry-After', async () => {
    const ip = nextIp();
    for (let i = 0; i < 5; i += 1) expect((await subscribe(app, { email: uniqueEmail('burst') }, ip)).statusCode).toBe(202);
    const refused = await subscribe(app, { email: uniqueEmail('burst') }, ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toMatchObject({ code: 'RATE_LIMITED', message: 'Too many subscription requests from your network. Please try again in 10 minute(s).' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(590);
    expect((await subscribe(app, { email: uniqueEmail('burst') }, nextIp())).statusCode).toBe(202);
  });
});

describe.each(ENGINES)('newsletter subscribers for administrators (%s)', (engine) => {
  let app: TestApp;
  let admin: TestClient;

  beforeAll(async () => {
    app = await createTestApp(engine);
    admin = (await signedInClient(app, 'admin')).client;
  });
  afterAll(async () => {
    await app.destroy();
  });

  it('lists subscribers newest first with counts, and exports them as CSV with formula cells defused', async () => {
    const pending = await subscribed(app, 'pending@example.com');
    const confirmed = await subscribed(app, '-2+3@example.com');
    await follow(app, confirmed.confirmUrl);
    const gone = await subscribed(app, 'gone@example.com');
    await follow(app, gone.confirmUrl);
    await follow(app, gone.unsubscribeUrl);
    expect(pending.confirmUrl).toBeDefined();
    // Written directly: what no form accepts must still come out harmless.
    await app.database.db
      .insertInto('newsletterSubscribers')
      .values({ email: '=hyperlink("http://x","y"),@example.com', unsubscribeTokenHash: sha256Hex('direct'), createdAt: new Date(Date.now() + 60_000) })
      .execute();

    const list = await admin.get('/api/v1/newsletter-subscribers');
    expect(list.statusCode).toBe(200);
    const body = list.json<NewsletterSubscribersResponse>();
    expect(body.counts).toEqual({ pending: 2, subscribed: 1, unsubscribed: 1 });
    expect(body.subscribers.map((s) => s.email)).toEqual(['=hyperlink("http://x","y"),@example.com', 'gone@example.com', '-2+3@example.com', 'pending@example.com']);
    expect(body.subscribers[1]).toEqual({
      id: expect.any(String),
      email: 'gone@example.com',
      status: 'unsubscribed',
      createdAt: expect.any(String),
      confirmedAt: expect.any(String),
      unsubscribedAt: expect.any(String),
    });

    const csv = await admin.get('/api/v1/newsletter-subscribers.csv');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="newsletter-subscribers-\d{4}-\d{2}-\d{2}\.csv"$/u);
    const lines = csv.body.split('\r\n');
    expect(lines[0]).toBe('Email,Status,Signed up,Confirmed,Unsubscribed');
    expect(lines[1]).toMatch(/^"'=hyperlink\(""http:\/\/x"",""y""\),@example\.com",pending,\S+,,$/u);
    expect(lines[2]).toMatch(/^gone@example\.com,unsubscribed,\S+Z,\S+Z,\S+Z$/u);
    expect(lines[3]).toMatch(/^'-2\+3@example\.com,subscribed,\S+Z,\S+Z,$/u);
    expect(lines[4]).toMatch(/^pending@example\.com,pending,\S+Z,,$/u);
    expect(lines[5]).toBe('');
    expect(lines).toHaveLength(6);
  });

  it('lets only administrators see the list and the export: 403 for managers and client users, 401 signed out', async () => {
    const manager = (await signedInClient(app, 'manager')).client;
    const clientUser = (await signedInClient(app, 'client')).client;
    for (const url of ['/api/v1/newsletter-subscribers', '/api/v1/newsletter-subscribers.csv']) {
      expect((await manager.get(url)).statusCode).toBe(403);
      expect((await clientUser.get(url)).statusCode).toBe(403);
      expect((await app.client().get(url)).statusCode).toBe(401);
    }
  });
});

describe.each(ENGINES)('newsletter e-mails over SMTP (%s)', (engine) => {
  let smtp: TestSmtpServer;
  let app: TestApp;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    app = await createTestApp(engine, { env: { SMTP_URL: smtp.url, SMTP_FROM: 'Parley <hello@parley.test>' } });
  });
  afterAll(async () => {
    await app.destroy();
    await smtp.close();
  });

  it('delivers the confirmation with List-Unsubscribe and List-Unsubscribe-Post headers whose URL unsubscribes in one click, and keeps neither body nor headers once delivered', async () => {
    const email = uniqueEmail('smtp');
    expect((await subscribe(app, { email })).statusCode).toBe(202);
    await app.queue.waitForIdle();
    const delivered = smtp.messages.filter((m) => m.to.includes(email));
    expect(delivered).toHaveLength(1);
    const raw = delivered[0]!.raw.replace(/\r?\n[ \t]+/gu, ' ');
    expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/mu);
    const url = /^List-Unsubscribe: <(http:\/\/localhost:3000\/newsletter\/unsubscribe\?token=[0-9a-f]{64})>\r?$/mu.exec(raw)?.[1];
    expect(url).toBeDefined();

    const row = await app.database.db.selectFrom('emails').selectAll().where('toAddress', '=', email).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'sent', kind: 'newsletter-confirm', textBody: DELIVERED_BODY_PLACEHOLDER, htmlBody: null, headers: null });

    expect((await oneClick(app, url!)).statusCode).toBe(200);
    expect((await subscriber(app, email))!.status).toBe('unsubscribed');
  });
});
