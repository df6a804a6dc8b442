import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import { scorePassword } from '../../../common/validation/password-strength';
import { generatePassword } from './users.service';

describe.each(ENGINES)('first administrator (%s)', (engine) => {
  let app: TestApp;
  beforeEach(async () => {
    app = await createTestApp(engine, { startJobs: false });
  });
  afterEach(async () => {
    await app.destroy();
  });

  const admins = () =>
    app.database.db
      .selectFrom('userRoles')
      .innerJoin('users', 'users.id', 'userRoles.userId')
      .select(['users.email', 'users.emailVerified'])
      .where('role', '=', 'admin')
      .execute();

  it('is created from ADMIN_EMAIL and ADMIN_PASSWORD, verified, and can sign in', async () => {
    const result = await app.services.users.ensureFirstAdmin({ email: ' Boss@Example.com ', password: 'Corr3ct!Horse#Battery', name: 'Boss' });
    expect(result).toEqual({ created: true, email: 'boss@example.com', password: undefined });
    expect(await admins()).toEqual([{ email: 'boss@example.com', emailVerified: true }]);
    expect((await app.client().post('/api/v1/auth/sign-in', { email: 'boss@example.com', password: 'Corr3ct!Horse#Battery' })).statusCode).toBe(200);
  });

  it('gets a generated password, returned once to be printed and stored only as an scrypt hash', async () => {
    const result = await app.services.users.ensureFirstAdmin({ email: undefined, password: undefined, name: 'Administrator' });
    if (!result.created || !result.password) throw new Error('expected a generated password');
    expect(result.email).toBe('admin@parley.local');
    const stored = await app.database.db.selectFrom('accounts').innerJoin('users', 'users.id', 'accounts.userId').select('accounts.password').where('users.email', '=', 'admin@parley.local').executeTakeFirstOrThrow();
    expect(stored.password).toMatch(/^scrypt\$32768\$8\$1\$[\w-]+\$[\w-]+$/u);
    expect(stored.password).not.toContain(result.password);
    expect((await app.client().post('/api/v1/auth/sign-in', { email: 'admin@parley.local', password: result.password })).statusCode).toBe(200);

    // Started again: an administrator exists, so nothing is created and nothing is printed.
    expect(await app.services.users.ensureFirstAdmin({ email: undefined, password: undefined, name: 'Administrator' })).toEqual({ created: false });
    expect(await admins()).toHaveLength(1);
  });

  it('promotes an existing account with that e-mail when no administrator exists', async () => {
    await app.services.users.createUser({ email: 'owner@example.com', password: 'Corr3ct!Horse#Battery', role: 'client', name: 'Owner' });
    const result = await app.services.users.ensureFirstAdmin({ email: 'owner@example.com', password: 'An0ther!Horse#Battery', name: 'X' });
    expect(result).toEqual({ created: false, promotedEmail: 'owner@example.com' });
    expect((await admins()).map((a) => a.email)).toEqual(['owner@example.com']);
  });

  it('refuses an ADMIN_PASSWORD that breaks the password policy', async () => {
    await expect(app.services.users.ensureFirstAdmin({ email: 'a@example.com', password: 'password', name: 'A' })).rejects.toThrow(
      'ADMIN_PASSWORD does not meet the password policy',
    );
    expect(await admins()).toEqual([]);
  });

  it('two instances starting at once create one administrator', async () => {
    const config = { email: 'race@example.com', password: 'Corr3ct!Horse#Battery', name: 'Race' };
    const results = await Promise.all([app.services.users.ensureFirstAdmin(config), app.services.users.ensureFirstAdmin(config)]);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(await admins()).toHaveLength(1);
  });
});

describe('generated passwords', () => {
  it('always pass the sign-up policy, with a strong score', () => {
    for (let i = 0; i < 50; i++) {
      const password = generatePassword();
      expect(password.length).toBeGreaterThanOrEqual(12);
      expect(scorePassword(password).label).toBe('Strong');
    }
  });
});
