import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, signedInClient, type TestApp } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import { defineJob, PermanentJobError } from '../../jobs/define-job';
import { JOB_FAILURE_THRESHOLD, WEBHOOK_FAILURE_THRESHOLD } from './error-alerts.service';

const alwaysFails = defineJob({ name: 'test.always-fails', payload: z.object({ n: z.number() }), maxAttempts: 1 });
const failsOnce = defineJob({ name: 'test.fails-rarely', payload: z.object({ n: z.number() }), maxAttempts: 1 });

describe.each(ENGINES)('error alerts (%s)', (engine) => {
  let app: TestApp;
  let alerted: Awaited<ReturnType<typeof signedInClient>>;
  let optedOut: Awaited<ReturnType<typeof signedInClient>>;
  let manager: Awaited<ReturnType<typeof signedInClient>>;
  beforeAll(async () => {
    app = await createTestApp(engine);
    app.queue.register(alwaysFails, async () => {
      throw new PermanentJobError('the remote service said no');
    });
    app.queue.register(failsOnce, async () => {
      throw new PermanentJobError('once');
    });
    alerted = await signedInClient(app, 'admin');
    optedOut = await signedInClient(app, 'admin');
    manager = await signedInClient(app, 'manager');
    expect((await optedOut.client.patch('/api/v1/me/notification-preferences', { errorAlerts: false })).statusCode).toBe(200);
  });
  afterAll(async () => {
    await app.destroy();
  });

  const db = () => app.database.db;
  const alertsOf = (userId: string) => db().selectFrom('notifications').select(['kind', 'title', 'body', 'link']).where('userId', '=', userId).where('kind', '=', 'system.error_alert').orderBy('createdAt').execute();
  const alertEmailsTo = (email: string) => db().selectFrom('emails').select(['subject', 'textBody']).where('toAddress', '=', email).where('kind', '=', 'error-alert').orderBy('createdAt').execute();

  it('keeps the check queued for the next five-minute period, one job per period', async () => {
    const jobs = await db()
      .selectFrom('jobs')
      .select(['payload', 'runAt', 'singletonKey', 'status'])
      .where('name', '=', 'notifications.error-alerts')
      .where('status', 'in', ['queued', 'running'])
      .execute();
    expect(jobs.length).toBeGreaterThanOrEqual(1);
    const periods = jobs.map((job) => (job.payload as { period: string }).period);
    expect(new Set(periods).size).toBe(periods.length);
    for (const job of jobs) {
      const runAt = new Date(job.runAt).getTime();
      expect(runAt % (5 * 60_000)).toBe(0);
      expect(job.payload).toEqual({ period: new Date(runAt).toISOString() });
      expect(job.singletonKey).toBe(new Date(runAt).toISOString());
    }
    // From here on the tests run the check themselves: no scheduled run in between.
    app.services.errorAlerts.stop();
    await db().deleteFrom('jobs').where('name', '=', 'notifications.error-alerts').where('status', '=', 'queued').execute();
  });

  it('alerts once when a kind of job keeps failing, not once per failure, and only admins who keep the switch on', async () => {
    for (let n = 0; n < JOB_FAILURE_THRESHOLD + 2; n++) await app.queue.enqueue(alwaysFails, { n });
    // Below the threshold: no alert for it.
    for (let n = 0; n < JOB_FAILURE_THRESHOLD - 1; n++) await app.queue.enqueue(failsOnce, { n });
    await app.queue.waitForIdle();
    const failed = await db().selectFrom('jobs').select('name').where('status', '=', 'failed').where('name', 'in', [alwaysFails.name, failsOnce.name]).execute();
    expect(failed).toHaveLength(JOB_FAILURE_THRESHOLD + 2 + JOB_FAILURE_THRESHOLD - 1);

    expect(await app.services.errorAlerts.check()).toEqual(['job:test.always-fails']);
    expect(await alertsOf(alerted.userId)).toEqual([
      {
        kind: 'system.error_alert',
        title: 'Background jobs failing: test.always-fails',
        body: `${JOB_FAILURE_THRESHOLD + 2} "test.always-fails" jobs failed for good in the last hour (their retries ran out, or they could not succeed).`,
        link: '/admin/production-status',
      },
    ]);
    const emails = await alertEmailsTo(alerted.email);
    expect(emails).toHaveLength(1);
    expect(emails[0]!.subject).toBe('Background jobs failing: test.always-fails');
    expect(emails[0]!.textBody).toContain('http://localhost:3000/admin/production-status');
    expect(await alertsOf(optedOut.userId)).toEqual([]);
    expect(await alertEmailsTo(optedOut.email)).toEqual([]);
    expect(await alertsOf(manager.userId)).toEqual([]);

    // More failures the same day, and more checks: no second alert.
    for (let n = 0; n < 3; n++) await app.queue.enqueue(alwaysFails, { n: 100 + n });
    await app.queue.waitForIdle();
    expect(await app.services.errorAlerts.check()).toEqual([]);
    expect(await app.services.errorAlerts.check()).toEqual([]);
    expect(await alertsOf(alerted.userId)).toHaveLength(1);
    expect(await alertEmailsTo(alerted.email)).toHaveLength(1);
    const today = new Date().toISOString().slice(0, 10);
    expect(await app.services.errorAlerts.alertedOn(today)).toEqual([{ cause: 'job:test.always-fails', title: 'Background jobs failing: test.always-fails' }]);
  });

  it('alerts once when a webhook subscription keeps failing, before it is turned off', async () => {
    const subscription = async (name: string, consecutiveFailures: number, status: 'active' | 'inactive' = 'active') =>
      db()
        .insertInto('webhookSubscriptions')
        .values({
          name,
          url: 'https://hooks.example.com/parley',
          status,
          signingSecret: 'sealed-for-the-test',
          secretPrefix: 'whsec_test',
          consecutiveFailures,
          failingSince: consecutiveFailures > 0 ? new Date(Date.now() - 30 * 60_000) : null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
    const failing = await subscription(`Failing ${randomUUID().slice(0, 6)}`, WEBHOOK_FAILURE_THRESHOLD);
    await subscription('Almost', WEBHOOK_FAILURE_THRESHOLD - 1);
    await subscription('Already off', WEBHOOK_FAILURE_THRESHOLD * 4, 'inactive');

    expect(await app.services.errorAlerts.check()).toEqual([`webhook:${failing.id}`]);
    const alerts = (await alertsOf(alerted.userId)).filter((a) => a.link === '/admin/webhooks');
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.title).toMatch(/^Webhook failing: Failing /u);
    expect(alerts[0]!.body).toMatch(new RegExp(`^The last ${WEBHOOK_FAILURE_THRESHOLD} delivery attempts to the webhook subscription`, 'u'));
    expect((await alertEmailsTo(alerted.email)).filter((e) => e.subject.startsWith('Webhook failing'))).toHaveLength(1);
    expect((await alertsOf(optedOut.userId)).filter((a) => a.link === '/admin/webhooks')).toEqual([]);

    // Still failing, more attempts: no second alert today.
    await db().updateTable('webhookSubscriptions').set({ consecutiveFailures: WEBHOOK_FAILURE_THRESHOLD + 3 }).where('id', '=', failing.id).execute();
    expect(await app.services.errorAlerts.check()).toEqual([]);
    expect((await alertsOf(alerted.userId)).filter((a) => a.link === '/admin/webhooks')).toHaveLength(1);
  });

});
