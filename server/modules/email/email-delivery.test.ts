import { Writable } from 'node:stream';
import { sql } from 'kysely';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedInClient, type TestApp } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import { latestEmail, tokenFrom } from '../../../test/helpers/mail';
import { startSmtpServer, type TestSmtpServer } from '../../../test/helpers/smtp';
import { DELIVERED_BODY_PLACEHOLDER } from './email.service';

/** The message as a reader sees it: quoted-printable soft breaks and escapes undone. */
function decodeQuotedPrintable(raw: string): string {
  const joined = raw.replace(/=\r?\n/gu, '');
  return Buffer.from(joined.replace(/=([0-9A-F]{2})/gu, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8');
}

async function signUp(app: TestApp, email: string) {
  const response = await app.client().post('/api/v1/auth/sign-up', {
    name: 'Mai Lee',
    email,
    password: 'Str0ng!Passw0rd',
    confirmPassword: 'Str0ng!Passw0rd',
  });
  expect(response.statusCode).toBe(201);
}

describe.each(ENGINES)('e-mail over SMTP (%s)', (engine) => {
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

  it('delivers the verification e-mail, whose link works, and keeps no body once delivered', async () => {
    const email = `smtp-${engine}@example.com`;
    await signUp(app, email);
    await app.queue.waitForIdle();

    const delivered = smtp.messages.filter((m) => m.to.includes(email));
    expect(delivered).toHaveLength(1);
    const message = decodeQuotedPrintable(delivered[0]!.raw);
    expect(delivered[0]!.from).toBe('hello@parley.test');
    expect(message).toContain('Subject: Verify your email address');
    const link = /http:\/\/localhost:3000\/api\/v1\/auth\/verify-email\?token=[A-Za-z0-9_%-]+/u.exec(message)?.[0];
    expect(link).toBeDefined();

    const row = await app.database.db.selectFrom('emails').selectAll().where('toAddress', '=', email).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'sent', transport: 'smtp', attempts: 1, lastError: null, textBody: DELIVERED_BODY_PLACEHOLDER, htmlBody: null });
    expect(row.providerMessageId).toBeTruthy();
    expect(row.sentAt).toBeInstanceOf(Date);

    const client = app.client();
    const verify = await client.get(`/api/v1/auth/verify-email?token=${encodeURIComponent(tokenFrom(link))}`);
    expect(verify.headers.location).toBe('/dashboard?verified=1');
  });

  it('retries after a temporary SMTP failure, with a backoff, and then delivers', async () => {
    const email = `smtp-retry-${engine}@example.com`;
    smtp.failNext(1);
    await signUp(app, email);
    await app.queue.waitForIdle(); // the first attempt failed; the retry is scheduled for later

    const failed = await app.database.db.selectFrom('emails').selectAll().where('toAddress', '=', email).executeTakeFirstOrThrow();
    expect(failed).toMatchObject({ status: 'queued', attempts: 1 });
    expect(failed.lastError).toMatch(/451/u);
    expect(smtp.messages.some((m) => m.to.includes(email))).toBe(false);
    const job = await app.database.db
      .selectFrom('jobs')
      .select(['status', 'attempts', sql<number>`extract(epoch from run_at - now())`.as('secondsAway')])
      .where('name', '=', 'email.deliver')
      .where(sql<string>`payload->>'emailId'`, '=', failed.id)
      .executeTakeFirstOrThrow();
    expect(job).toMatchObject({ status: 'queued', attempts: 1 });
    expect(Number(job.secondsAway)).toBeGreaterThan(1);

    // Bring the retry forward instead of waiting for it.
    await app.database.db.updateTable('jobs').set({ runAt: new Date() }).where('name', '=', 'email.deliver').where('status', '=', 'queued').execute();
    await app.queue.waitForIdle();
    expect(smtp.messages.filter((m) => m.to.includes(email))).toHaveLength(1);
    const sent = await app.database.db.selectFrom('emails').selectAll().where('toAddress', '=', email).executeTakeFirstOrThrow();
    expect(sent).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
  });
});

describe.each(ENGINES)('e-mail without SMTP (%s)', (engine) => {
  let app: TestApp;
  const logged: string[] = [];

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logged.push(chunk.toString());
        done();
      },
    });
    app = await createTestApp(engine, { logger: pino({ level: 'info' }, sink) });
  });
  afterAll(async () => {
    await app.destroy();
  });

  it('stores the message, prints it with its link, and shows it to admins at /api/v1/admin/outbox', async () => {
    const email = `outbox-${engine}@example.com`;
    await signUp(app, email);
    await app.queue.waitForIdle();
    const mail = await latestEmail(app.database.db, email, 'verification');
    expect(mail).toMatchObject({ status: 'stored', transport: 'outbox', attempts: 1 });
    expect(mail.link).toContain('/api/v1/auth/verify-email?token=');
    expect(logged.join('')).toContain(tokenFrom(mail.link));

    const admin = await signedInClient(app, 'admin');
    const list = await admin.client.get('/api/v1/admin/outbox');
    expect(list.statusCode).toBe(200);
    expect(list.json().emails).toContainEqual(
      expect.objectContaining({ id: mail.id, to: email, kind: 'verification', subject: 'Verify your email address', status: 'stored' }),
    );
    const one = await admin.client.get(`/api/v1/admin/outbox/${mail.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json().textBody).toContain(mail.link);
  });

  it('is for admins only', async () => {
    const mail = await app.database.db.selectFrom('emails').select('id').executeTakeFirstOrThrow();
    for (const role of ['manager', 'client'] as const) {
      const { client } = await signedInClient(app, role);
      expect((await client.get('/api/v1/admin/outbox')).statusCode).toBe(403);
      expect((await client.get(`/api/v1/admin/outbox/${mail.id}`)).statusCode).toBe(403);
    }
    expect((await app.client().get('/api/v1/admin/outbox')).statusCode).toBe(401);
  });
});
