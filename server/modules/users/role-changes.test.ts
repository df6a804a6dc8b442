import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedInClient, type TestApp } from '../../../test/helpers/app';
import { ENGINES, secondInstance, TEST_DATABASE_URL } from '../../../test/helpers/database';
import type { SessionUser } from '../../http/access';
import { ADMIN_ROLES_LOCK } from './users.service';

describe.each(ENGINES)('role changes (%s)', (engine) => {
  let app: TestApp;

  beforeAll(async () => {
    app = await createTestApp(engine);
  });
  afterAll(async () => {
    await app.destroy();
  });

  const db = () => app.database.db;

  async function userId(role: 'admin' | 'manager' | 'client'): Promise<string> {
    const email = `${role}-${randomUUID().slice(0, 8)}@example.com`;
    return (await app.services.users.createUser({ email, password: 'Corr3ct!Horse#Battery', role, name: 'Target' })).id;
  }

  async function roleOf(id: string) {
    return (await db().selectFrom('userRoles').select('role').where('userId', '=', id).executeTakeFirstOrThrow()).role;
  }

  /** Leaves exactly the given users as the administrators, whatever earlier tests did. */
  async function onlyAdmins(ids: string[]) {
    await db().updateTable('userRoles').set({ role: 'manager' }).where('role', '=', 'admin').where('userId', 'not in', ids).execute();
  }

  const adminCount = async () =>
    Number((await db().selectFrom('userRoles').select((eb) => eb.fn.countAll().as('n')).where('role', '=', 'admin').executeTakeFirstOrThrow()).n);

  it('an admin changes a role; the change is recorded with who assigned it', async () => {
    const admin = await signedInClient(app, 'admin');
    const target = await userId('client');
    const response = await admin.client.patch(`/api/v1/users/${target}/role`, { role: 'manager' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: target, role: 'manager', roleAssignedBy: admin.userId });
    expect(await roleOf(target)).toBe('manager');

    const history = await db()
      .selectFrom('roleChanges')
      .select(['oldRole', 'newRole', 'assignedBy'])
      .where('userId', '=', target)
      .orderBy('createdAt')
      .execute();
    expect(history).toEqual([
      { oldRole: null, newRole: 'client', assignedBy: null },
      { oldRole: 'client', newRole: 'manager', assignedBy: admin.userId },
    ]);
  });

  it.each(['manager', 'client'] as const)('a %s may not change roles (403)', async (role) => {
    const caller = await signedInClient(app, role);
    const target = await userId('client');
    const response = await caller.client.patch(`/api/v1/users/${target}/role`, { role: 'admin' });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('FORBIDDEN');
    expect(await roleOf(target)).toBe('client');
  });

  it('nobody changes their own role (400, own_role)', async () => {
    const admin = await signedInClient(app, 'admin');
    const response = await admin.client.patch(`/api/v1/users/${admin.userId}/role`, { role: 'manager' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: { code: 'BAD_REQUEST', message: 'You cannot modify your own role.', details: { reason: 'own_role' } },
    });
    expect(await roleOf(admin.userId)).toBe('admin');
  });

  it('never removes the last administrator (409, last_admin), even for a caller whose session still says admin', async () => {
    // The second half of a race: B was demoted after its request was authorised.
    const a = await userId('admin');
    const b = await userId('admin');
    await onlyAdmins([a, b]);
    await db().updateTable('userRoles').set({ role: 'manager' }).where('userId', '=', b).execute();
    const staleB: SessionUser = { id: b, email: 'b@example.com', name: 'B', role: 'admin', clientId: null, sessionId: randomUUID(), emailVerified: true };
    await expect(app.services.users.changeRole(staleB, a, 'client')).rejects.toMatchObject({
      code: 'CONFLICT',
      status: 409,
      message: 'Cannot remove the last administrator from the system.',
      details: { reason: 'last_admin' },
    });
    expect(await roleOf(a)).toBe('admin');
  });

  it('lets an admin demote a disabled administrator (it is not one of those left)', async () => {
    const admin = await signedInClient(app, 'admin');
    const disabled = await userId('admin');
    await onlyAdmins([admin.userId, disabled]);
    await db().updateTable('users').set({ disabledAt: new Date() }).where('id', '=', disabled).execute();
    const response = await admin.client.patch(`/api/v1/users/${disabled}/role`, { role: 'client' });
    expect(response.statusCode).toBe(200);
    expect(await roleOf(disabled)).toBe('client');
  });

  it('answers 404 for an unknown user and 400 for an unknown role', async () => {
    const admin = await signedInClient(app, 'admin');
    expect((await admin.client.patch(`/api/v1/users/${randomUUID()}/role`, { role: 'client' })).statusCode).toBe(404);
    const target = await userId('client');
    const bad = await admin.client.patch(`/api/v1/users/${target}/role`, { role: 'owner' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('VALIDATION_ERROR');
  });

  it('two admins demoting each other at the same moment leave exactly one admin', async () => {
    const a = await signedInClient(app, 'admin');
    // On PostgreSQL, B works through a second app instance with its own connection pool.
    const other = await createTestApp(engine, { database: await secondInstance(app.database) });
    try {
      const b = await signedInClient(other, 'admin');
      await onlyAdmins([a.userId, b.userId]);

      let releaseLock = async () => {};
      if (engine === 'postgres') {
        // Hold the lock the service takes, so both requests are authorised and then wait on it
        // together: only the lock can keep the second from demoting the last admin.
        const holder = new pg.Client({ connectionString: TEST_DATABASE_URL });
        await holder.connect();
        await holder.query('begin');
        await holder.query('select pg_advisory_xact_lock($1)', [ADMIN_ROLES_LOCK]);
        releaseLock = async () => {
          await holder.query('commit');
          await holder.end();
        };
      }
      const requests = Promise.all([
        a.client.patch(`/api/v1/users/${b.userId}/role`, { role: 'manager' }),
        b.client.patch(`/api/v1/users/${a.userId}/role`, { role: 'manager' }),
      ]);
      if (engine === 'postgres') {
        await waitForLockWaiters(2);
        await releaseLock();
      }
      const responses = await requests;
      const statuses = responses.map((r) => r.statusCode).sort();
      expect(statuses[0]).toBe(200);
      if (engine === 'postgres') {
        const refused = responses.find((r) => r.statusCode !== 200)!;
        expect(refused.statusCode).toBe(409);
        expect(refused.json().error.details).toEqual({ reason: 'last_admin' });
      } else {
        // PGlite runs one statement at a time: the loser may already read its own demotion.
        expect([403, 409]).toContain(statuses[1]);
      }
      expect(await adminCount()).toBe(1);
    } finally {
      await other.destroy();
    }
  });
});

/** Polls pg_locks until `count` sessions wait for the role lock. */
async function waitForLockWaiters(count: number): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    for (let i = 0; i < 500; i++) {
      const { rows } = await client.query<{ n: number }>(
        `select count(*)::int as n from pg_locks
         where locktype = 'advisory' and not granted and classid = 0 and objid = $1 and database = (select oid from pg_database where datname = current_database())`,
        [ADMIN_ROLES_LOCK],
      );
      if ((rows[0]?.n ?? 0) >= count) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error('the role changes never waited for the lock');
  } finally {
    await client.end();
  }
}

