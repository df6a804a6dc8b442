import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HealthReport } from '../../../common/api/system';
import { createTestApp, type TestApp } from '../../../test/helpers/app';
import pg from 'pg';
import { createTestDatabase, ENGINES, secondInstance, TEST_DATABASE_URL, type TestDatabase } from '../../../test/helpers/database';
import { PGlite } from '@electric-sql/pglite';
import { SNAPSHOT_FILE } from '../../../test/helpers/snapshot';
import { VERSION } from '../../app';
import { pgliteDir } from '../../db/data-dir';
import { type Engine, openDatabase } from '../../db/database';
import { systemClock } from '../../lib/clock';
import { type DiskReading, HEARTBEAT_SETTING, HealthService, type HealthThresholds } from './health.service';

const THRESHOLDS: HealthThresholds = { minFreeBytes: 100 * 1024 * 1024, minFreePercent: 1, jobMaxAgeSeconds: 300 };

/** PGlite in a directory (as `npm start` opens it), from the migrated snapshot; PostgreSQL as usual. */
async function databaseFor(engine: Engine, dataDir: string): Promise<TestDatabase> {
  if (engine === 'postgres') return createTestDatabase(engine);
  const seed = new PGlite(pgliteDir(dataDir), { loadDataDir: new Blob([fs.readFileSync(SNAPSHOT_FILE)]) });
  await seed.waitReady;
  await seed.close();
  const database = await openDatabase({ dataDir: pgliteDir(dataDir) });
  return { ...database, reopen: () => Promise.reject(new Error('single process')), destroy: () => database.close() };
}

describe.each(ENGINES)('GET /api/v1/health tells the truth (%s)', (engine) => {
  let dataDir: string;
  let database: TestDatabase;
  let app: TestApp;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-health-'));
    database = await databaseFor(engine, dataDir);
    app = await createTestApp(engine, { database, startJobs: false, env: { DATA_DIR: dataDir } });
  });
  afterAll(async () => {
    await app.destroy();
    await database.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  function service(overrides: Partial<ConstructorParameters<typeof HealthService>[0]> = {}) {
    return new HealthService({
      db: app.database.db,
      engine,
      version: VERSION,
      dataDir: engine === 'pglite' ? pgliteDir(dataDir) : undefined,
      thresholds: THRESHOLDS,
      clock: systemClock,
      cacheMs: 0,
      ...overrides,
    });
  }

  it('healthy: 200 with each check, after a real write of the heartbeat row', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const report = response.json<HealthReport>();
    expect(report).toMatchObject({ status: 'ok', engine, version: VERSION, failing: [] });
    expect(report.checks.database).toMatchObject({ ok: true });
    expect(report.checks.database.writeMs).toEqual(expect.any(Number));
    expect(report.checks.jobs).toEqual({ ok: true, due: 0, oldestDueSeconds: null });
    if (engine === 'pglite') expect(report.checks.disk).toMatchObject({ ok: true, freeBytes: expect.any(Number), freePercent: expect.any(Number) });
    else expect(report.checks.disk).toBeNull();
    const heartbeat = await app.database.db.selectFrom('appSettings').select('value').where('key', '=', HEARTBEAT_SETTING).executeTakeFirstOrThrow();
    expect(new Date(heartbeat.value).getTime()).toBeGreaterThan(Date.now() - 60_000);
    // Small and secret-free: nothing but the fields above.
    expect(response.body.length).toBeLessThan(600);
    expect(Object.keys(report).sort()).toEqual(['checkedAt', 'checks', 'engine', 'failing', 'status', 'version']);
  });

  it('a write that cannot finish in time (the heartbeat row or the only connection held) fails with "timeout"', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    await service().check(); // the heartbeat row exists
    const holder = app.database.db.transaction().execute(async (trx) => {
      await trx.selectFrom('appSettings').select('key').where('key', '=', HEARTBEAT_SETTING).forUpdate().execute();
      locked();
      await held;
    });
    try {
      await isLocked;
      const report = await service({ timeoutMs: 300 }).check();
      expect(report.status).toBe('failing');
      expect(report.failing).toEqual(['database']);
      expect(report.checks.database).toEqual({ ok: false, writeMs: null, error: 'timeout' });
    } finally {
      release();
      await holder;
    }
  });

  it.runIf(engine === 'postgres')('a read-only database (a role whose transactions are read only) fails with "read_only"', async () => {
    const role = `parley_ro_${Math.random().toString(36).slice(2, 10)}`;
    const schema = database.schema!;
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    let readOnly: Awaited<ReturnType<typeof openDatabase>> | undefined;
    try {
      await admin.query(`create role ${role} login`);
      await admin.query(`grant usage on schema ${schema} to ${role}`);
      await admin.query(`grant select, insert, update on all tables in schema ${schema} to ${role}`);
      await admin.query(`alter role ${role} set default_transaction_read_only = on`);
      const url = new URL(TEST_DATABASE_URL!);
      url.username = role;
      url.searchParams.set('options', `-c search_path=${schema}`);
      readOnly = await openDatabase({ url: url.toString(), poolSize: 1 });
      const report = await service({ db: readOnly.db }).check();
      expect(report).toMatchObject({ status: 'failing', failing: ['database'], checks: { database: { ok: false, error: 'read_only' } } });
    } finally {
      await readOnly?.close();
      await admin.query(`drop owned by ${role}`).catch(() => undefined);
      await admin.query(`drop role if exists ${role}`);
      await admin.end();
    }
  });

  it('an old backlog of due jobs is "degraded" (200) and says how old; a fresh one is ok', async () => {
    await app.database.db
      .insertInto('jobs')
      .values([
        { name: 'health-test', payload: JSON.stringify({}), runAt: new Date(Date.now() - 30_000) },
        { name: 'health-test', payload: JSON.stringify({}), runAt: new Date(Date.now() - 3_600_000) },
        { name: 'health-test', payload: JSON.stringify({}), runAt: new Date(Date.now() + 3_600_000) },
      ])
      .execute();
    try {
      const report = await service().check();
      expect(report.status).toBe('degraded');
      expect(report.failing).toEqual(['jobs']);
      expect(report.checks.jobs.ok).toBe(false);
      expect(report.checks.jobs.due).toBe(2);
      expect(report.checks.jobs.oldestDueSeconds).toBeGreaterThanOrEqual(3590);

      const relaxed = await service({ thresholds: { ...THRESHOLDS, jobMaxAgeSeconds: 7200 } }).check();
      expect(relaxed).toMatchObject({ status: 'ok', failing: [] });

      const response = await createTestApp(engine, { database: app.database, startJobs: false, env: { DATA_DIR: dataDir } });
      try {
        const answer = await response.inject({ method: 'GET', url: '/api/v1/health' });
        expect(answer.statusCode).toBe(200);
        expect(answer.json<HealthReport>()).toMatchObject({ status: 'degraded', failing: ['jobs'] });
      } finally {
        await response.destroy();
      }
    } finally {
      await app.database.db.deleteFrom('jobs').where('name', '=', 'health-test').execute();
    }
  });

  it.runIf(engine === 'pglite')('disk space under DATA_DIR below either threshold fails with 503', async () => {
    const reading = (bavail: number, blocks = 10_000_000): (() => Promise<DiskReading>) => () => Promise.resolve({ bavail, blocks, bsize: 4096 });
    // 40 MB free of 40 GB: under 100 MB and under 1 %.
    const full = await service({ statfs: reading(10_000) }).check();
    expect(full).toMatchObject({ status: 'failing', failing: ['disk'], checks: { disk: { ok: false, freeBytes: 40_960_000, freePercent: 0.1 } } });
    // 400 MB free, but 0.5 % of the disk.
    expect((await service({ statfs: reading(100_000, 20_000_000) }).check()).failing).toEqual(['disk']);
    // 4 GB free of 40 GB.
    expect((await service({ statfs: reading(1_000_000) }).check()).status).toBe('ok');

    // Through HTTP, the real statfs of DATA_DIR against a threshold larger than any disk.
    const strict = await createTestApp(engine, { database: app.database, startJobs: false, env: { DATA_DIR: dataDir, HEALTH_MIN_FREE_MB: String(1024 ** 3) } });
    try {
      const answer = await strict.inject({ method: 'GET', url: '/api/v1/health' });
      expect(answer.statusCode).toBe(503);
      expect(answer.json<HealthReport>()).toMatchObject({ status: 'failing', failing: ['disk'], checks: { database: { ok: true } } });
    } finally {
      await strict.destroy();
    }
  });

  it('cached for a moment: a second request within the second does not write again', async () => {
    let now = Date.parse('2026-03-01T10:00:00Z');
    const health = service({ clock: { now: () => new Date(now) }, cacheMs: 1000 });
    const first = await health.report();
    now += 500;
    expect(await health.report()).toBe(first);
    now += 600;
    expect(await health.report()).not.toBe(first);
  });
});

describe.each(ENGINES)('GET /api/v1/health when the database is gone (%s)', (engine) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
  });
  afterAll(async () => {
    await database.destroy().catch(() => undefined);
  });

  it('answers 503 naming the database check, without internals', async () => {
    // Its own connections (PostgreSQL: a second pool), closed under the running app.
    const instance = engine === 'postgres' ? await secondInstance(database) : database;
    const app = await createTestApp(engine, { database: instance, startJobs: false, env: { HEALTH_MIN_FREE_MB: '0', HEALTH_MIN_FREE_PERCENT: '0' } });
    try {
      await instance.close();
      const response = await app.inject({ method: 'GET', url: '/api/v1/health' });
      expect(response.statusCode).toBe(503);
      const report = response.json<HealthReport>();
      expect(report).toMatchObject({ status: 'failing', checks: { database: { ok: false, writeMs: null, error: 'unavailable' }, jobs: { ok: false, due: null } } });
      expect(report.failing).toEqual(['database']);
      expect(response.body).not.toMatch(/pool|driver|destroyed|stack/iu);
    } finally {
      await app.close().catch(() => undefined);
    }
  });
});
