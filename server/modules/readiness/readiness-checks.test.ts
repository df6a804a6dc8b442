/**
 * The readiness checks' thresholds on facts given by hand (readiness-checks.ts): ages of backups,
 * backlogs, first responses, error rates, the test e-mail's states, addresses that are local, the
 * pages' metadata — and the score and its 90 % threshold.
 */
import { describe, expect, it } from 'vitest';
import { READY_THRESHOLD, readinessScore } from '../../../common/api/readiness';
import type { HealthReport } from '../../../common/api/system';
import { findPage } from '../../../common/routes';
import { type CheckContext, duration, link, localAddress, pageMetadata, READINESS_CHECKS, smtpServer } from './readiness-checks';
import type { EmailState } from './readiness-sources';

const NOW = new Date('2026-05-01T12:00:00Z');
const HOUR = 3600_000;

const health = (overrides: Partial<HealthReport['checks']> = {}, status: HealthReport['status'] = 'ok'): HealthReport => ({
  status,
  engine: 'pglite',
  version: '0.1.0',
  failing: status === 'ok' ? [] : ['jobs'],
  checks: { database: { ok: true, writeMs: 12 }, jobs: { ok: true, due: 0, oldestDueSeconds: null }, disk: null, ...overrides },
  checkedAt: NOW.toISOString(),
});

/** A context where nothing is measured yet: each test gives the facts its check reads. */
function context(facts: Partial<CheckContext> = {}): CheckContext {
  const none = () => Promise.reject(new Error('not given'));
  return {
    now: NOW,
    engine: 'pglite',
    config: {
      env: 'production',
      publicUrl: 'https://chat.bakery.test',
      secretsKeyFromEnv: true,
      databasePoolSize: 10,
      smtpUrl: 'smtp://user:secret@mail.bakery.test:587',
      smtpFrom: 'Bakery <hello@bakery.test>',
      logLevel: 'info',
      webDistDir: '/srv/parley/dist/web',
      jobMaxAgeSeconds: 300,
    },
    admins: none,
    health: none,
    jobOutcomes: none,
    lastBackup: none,
    walArchiver: none,
    migrations: none,
    smtpFingerprint: 'f'.repeat(64),
    latestTestEmail: none,
    emailDeliveries: none,
    sections: none,
    heroStats: none,
    posts: none,
    channels: none,
    demoWidgetId: none,
    firstResponse: none,
    replyOutcomes: none,
    site: none,
    fetchPublic: none,
    webAppBuilt: () => true,
    ...facts,
  };
}

const check = (key: string) => {
  const found = READINESS_CHECKS.find((c) => c.key === key);
  if (!found) throw new Error(key);
  return found;
};

describe('the catalogue', () => {
  it('has 24 items, three per category, with their own keys and names', () => {
    expect(READINESS_CHECKS).toHaveLength(24);
    const byCategory = new Map<string, number>();
    for (const c of READINESS_CHECKS) byCategory.set(c.category, (byCategory.get(c.category) ?? 0) + 1);
    expect([...byCategory.values()]).toEqual([3, 3, 3, 3, 3, 3, 3, 3]);
    expect(new Set(READINESS_CHECKS.map((c) => c.key)).size).toBe(24);
    expect(new Set(READINESS_CHECKS.map((c) => c.item)).size).toBe(24);
  });

  it('links only to screens of the app', () => {
    expect(link('x', 'profile', { tab: 'security' }).path).toBe('/profile?tab=security');
    expect(findPage('/admin/outbox')).toBeDefined();
  });
});

describe('the score', () => {
  it('is the rounded percentage of complete items; Production Ready from 90 %', () => {
    expect(readinessScore(22, 24)).toBe(92);
    expect(readinessScore(21, 24)).toBe(88);
    expect(readinessScore(0, 24)).toBe(0);
    expect(readinessScore(24, 24)).toBe(100);
    expect(readinessScore(22, 24) >= READY_THRESHOLD).toBe(true);
    expect(readinessScore(21, 24) >= READY_THRESHOLD).toBe(false);
  });
});

describe('the checks', () => {
  it('backup: fresh within 26 h, stale to 7 days, critical after or never', async () => {
    const at = (hoursAgo: number) => context({ lastBackup: () => Promise.resolve({ createdAt: new Date(NOW.getTime() - hoursAgo * HOUR).toISOString(), bytes: 5 * 1024 * 1024 }) });
    expect(await check('backup').run(at(3))).toMatchObject({ status: 'complete', reason: 'The last backup was taken 3 h ago (2026-05-01 09:00 UTC, 5.0 MB).' });
    expect((await check('backup').run(at(48))).status).toBe('needs-attention');
    expect((await check('backup').run(at(24 * 8))).status).toBe('critical');
    expect((await check('backup').run(context({ lastBackup: () => Promise.resolve(null) }))).status).toBe('critical');
  });

  it('backup on PostgreSQL: WAL archiving off, failing or recent', async () => {
    const pg = (wal: Awaited<ReturnType<CheckContext['walArchiver']>>) => context({ engine: 'postgres', walArchiver: () => Promise.resolve(wal) });
    const base = { archiveMode: 'on', archivedCount: 10, failedCount: 0, lastFailedAt: null };
    expect((await check('backup').run(pg({ ...base, archiveMode: 'off', lastArchivedAt: null }))).status).toBe('needs-attention');
    expect(await check('backup').run(pg({ ...base, lastArchivedAt: new Date(NOW.getTime() - 600_000) }))).toMatchObject({ status: 'complete' });
    expect(
      (await check('backup').run(pg({ ...base, lastArchivedAt: new Date(NOW.getTime() - HOUR), failedCount: 1, lastFailedAt: new Date(NOW.getTime() - 60_000) }))).status,
    ).toBe('critical');
  });

  it('job backlog: within HEALTH_JOB_MAX_AGE_SECONDS, behind, far behind', async () => {
    const backlog = (oldest: number) => context({ health: () => Promise.resolve(health({ jobs: { ok: oldest <= 300, due: 40, oldestDueSeconds: oldest } })) });
    expect((await check('job-backlog').run(backlog(120))).status).toBe('complete');
    expect(await check('job-backlog').run(backlog(900))).toMatchObject({ status: 'needs-attention', reason: '40 jobs due now, the oldest waiting 15 min (limit 5 min): the workers are behind.' });
    expect((await check('job-backlog').run(backlog(4000))).status).toBe('critical');
  });

  it('database latency and health follow the health report', async () => {
    const write = (ms: number) => context({ health: () => Promise.resolve(health({ database: { ok: true, writeMs: ms } })) });
    expect((await check('database-latency').run(write(40))).status).toBe('complete');
    expect((await check('database-latency').run(write(400))).status).toBe('needs-attention');
    expect((await check('database-latency').run(write(2000))).status).toBe('critical');
    const failing = context({ health: () => Promise.resolve({ ...health({ database: { ok: false, writeMs: null, error: 'disk_full' } }), status: 'failing', failing: ['database'] }) });
    expect(await check('health').run(failing)).toMatchObject({ status: 'critical', reason: expect.stringContaining('Health is failing (database)') });
    expect((await check('database-latency').run(failing)).reason).toBe('The database write failed (disk_full).');
  });

  it('first response: 5 min is good, an hour is slow, nothing answered is critical', async () => {
    const median = (seconds: number | null, conversations = 12) => context({ firstResponse: () => Promise.resolve({ conversations, firstResponseSeconds: seconds }) });
    expect(await check('first-response').run(median(42))).toMatchObject({ status: 'complete', reason: 'Median first response 42 s over 12 conversations of the last 7 days.' });
    expect((await check('first-response').run(median(900))).status).toBe('needs-attention');
    expect((await check('first-response').run(median(3 * 3600))).status).toBe('critical');
    expect((await check('first-response').run(median(null))).status).toBe('critical');
    expect((await check('first-response').run(median(null, 0))).status).toBe('needs-attention');
  });

  it('replies and jobs: failure rates over their thresholds', async () => {
    const replies = (delivered: number, failed: number) => context({ replyOutcomes: () => Promise.resolve({ delivered, failed, unknown: 0, queued: 0 }) });
    expect((await check('replies-delivered').run(replies(100, 0))).status).toBe('complete');
    expect((await check('replies-delivered').run(replies(999, 1))).status).toBe('needs-attention');
    expect((await check('replies-delivered').run(replies(90, 10))).status).toBe('critical');
    const jobs = (completed: number, failed: number) =>
      context({ jobOutcomes: () => Promise.resolve({ completed, failed, failedByName: failed ? [{ name: 'email.deliver', count: failed }] : [] }) });
    expect((await check('job-errors').run(jobs(500, 0))).status).toBe('complete');
    expect(await check('job-errors').run(jobs(1999, 1))).toMatchObject({ status: 'needs-attention', reason: '1 of 2,000 jobs of the last 24 hours failed (0.05%): email.deliver 1.' });
    expect((await check('job-errors').run(jobs(90, 10))).status).toBe('critical');
  });

  it('the test e-mail: delivered, queued, failed, or none under this configuration', async () => {
    const test = (email: EmailState | null) =>
      context({ latestTestEmail: () => Promise.resolve(email === null ? null : { sentTo: 'ada@bakery.test', createdAt: new Date(NOW.getTime() - 60_000), email }) });
    expect((await check('test-email').run(test(null))).action?.kind).toBe('send-test-email');
    expect((await check('test-email').run(test({ status: 'sent', transport: 'smtp', attempts: 1, lastError: null, sentAt: NOW }))).status).toBe('complete');
    expect(await check('test-email').run(test({ status: 'queued', transport: null, attempts: 1, lastError: 'Greylisted', sentAt: null }))).toMatchObject({
      status: 'needs-attention',
      reason: 'The test e-mail to ada@bakery.test queued at 2026-05-01 11:59 UTC has not been delivered yet (attempt 1 failed: Greylisted).',
    });
    expect((await check('test-email').run(test({ status: 'failed', transport: null, attempts: 8, lastError: '550 No such user', sentAt: null }))).status).toBe('critical');
    const noSmtp = context({ smtpFingerprint: null });
    expect((await check('test-email').run({ ...noSmtp, config: { ...noSmtp.config, smtpUrl: undefined } })).status).toBe('critical');
  });

  it('SMTP: names host and port, never the credentials', async () => {
    const outcome = await check('smtp').run(context());
    expect(outcome).toMatchObject({ status: 'complete', reason: 'SMTP server mail.bakery.test:587, sender Bakery <hello@bakery.test>.' });
    expect(outcome.reason).not.toContain('secret');
    expect(smtpServer('smtps://a:b@mail.example.com')).toBe('mail.example.com:465 (TLS)');
  });

  it('a check that throws is reported, not hidden (the service turns it into needs-attention)', async () => {
    await expect(check('health').run(context())).rejects.toThrow('not given');
  });
});

describe('helpers', () => {
  it('tells local addresses from public ones', () => {
    expect(localAddress('localhost')).toBe('this machine (localhost)');
    expect(localAddress('127.0.0.1')).toBe('the loopback network');
    expect(localAddress('10.1.2.3')).toBe('a private network');
    expect(localAddress('parley.local')).toBe('a local network name');
    expect(localAddress('intranet')).toBe('a local network name');
    expect(localAddress('chat.bakery.test')).toBeNull();
    expect(localAddress('203.0.113.9')).not.toBeNull();
    expect(localAddress('8.8.8.8')).toBeNull();
  });

  it('reads a page’s title and description as the public site writes them', () => {
    expect(pageMetadata('<title>Bakery &amp; Co</title>\n<meta name="description" content="Fresh &quot;bread&quot;">')).toEqual({ title: 'Bakery & Co', description: 'Fresh "bread"' });
    expect(pageMetadata('<p>nothing</p>')).toEqual({ title: '', description: '' });
  });

  it('writes durations as people read them', () => {
    expect(duration(42)).toBe('42 s');
    expect(duration(900)).toBe('15 min');
    expect(duration(3 * 3600 + 300)).toBe('3 h 5 min');
    expect(duration(5 * 86400)).toBe('5 days');
  });
});
