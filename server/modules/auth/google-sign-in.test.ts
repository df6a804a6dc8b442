/**
 * Google sign-in over OpenID Connect against a real provider on loopback (oidc-provider): Parley's
 * side through `app.inject`, the identity provider's side over real HTTP with its own cookie jar,
 * the way a browser carries both.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PUBLIC_URL, type TestApp, type TestClient } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import { startOidcProvider, type OidcAccount, type TestOidcProvider } from '../../../test/helpers/oidc-provider';
import { secretFromUri, totp, wrongTotp } from '../../../test/helpers/totp';

const LOGIN_ERROR = '/login?error=google';

/** The identity provider's half of a browser: cookies for the provider's origin, manual redirects. */
class ProviderBrowser {
  readonly cookies = new Map<string, string>();

  async fetch(url: URL, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
    const headers: Record<string, string> = {};
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const body = init.form ? new URLSearchParams(init.form) : undefined;
    const response = await fetch(url, { method: init.method ?? 'GET', headers, body, redirect: 'manual' });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = cookie.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*expires=Thu, 01 Jan 1970/iu.test(a)) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }
}

function location(response: Response, base: string): URL {
  const value = response.headers.get('location');
  if (!value) throw new Error(`expected a redirect, got ${response.status}: ${response.statusText}`);
  return new URL(value, base);
}

describe.each(ENGINES)('Google sign-in through OpenID Connect (%s)', (engine) => {
  let idp: TestOidcProvider;
  let app: TestApp;
  let accountCounter = 0;

  beforeAll(async () => {
    idp = await startOidcProvider({ redirectUris: [`${TEST_PUBLIC_URL}/api/auth/callback/google`] });
    app = await createTestApp(engine, { startJobs: false, env: idp.env });
  });
  afterAll(async () => {
    await app.destroy();
    await idp.close();
  });

  function googleAccount(overrides: Partial<OidcAccount> = {}): OidcAccount {
    accountCounter += 1;
    const account: OidcAccount = {
      sub: `google-${engine}-${accountCounter}`,
      email: `google.user.${accountCounter}@example.com`,
      emailVerified: true,
      name: `Gia Google`,
      ...overrides,
    };
    idp.addAccount(account);
    return account;
  }

  /** GET /api/v1/auth/social/google: the provider's authorization URL (state cookie in the jar). */
  async function startSignIn(client: TestClient, redirectTo = '/dashboard'): Promise<URL> {
    const response = await client.get(`/api/v1/auth/social/google?redirectTo=${encodeURIComponent(redirectTo)}`);
    expect(response.statusCode).toBe(302);
    return new URL(response.headers.location as string);
  }

  /** Signs in at the provider as `sub`; returns the callback URL the provider sends the browser to. */
  async function authorize(authorizationUrl: URL, sub: string, browser = new ProviderBrowser()): Promise<URL> {
    const toLogin = await browser.fetch(authorizationUrl);
    expect(toLogin.status).toBe(303);
    const loginPage = location(toLogin, idp.issuer);
    const page = await browser.fetch(loginPage);
    expect(await page.text()).toContain('Continue as');
    const submitted = await browser.fetch(new URL(`${loginPage.pathname}/login`, idp.issuer), { method: 'POST', form: { account: sub } });
    expect(submitted.status).toBe(303);
    const resumed = await browser.fetch(location(submitted, idp.issuer));
    const callback = location(resumed, idp.issuer);
    expect(callback.origin + callback.pathname).toBe(`${TEST_PUBLIC_URL}/api/auth/callback/google`);
    return callback;
  }

  /** Delivers the provider's redirect to Parley in the browser `client`. */
  async function callback(client: TestClient, url: URL) {
    return client.get(url.pathname + url.search);
  }

  async function signInWithGoogle(client: TestClient, sub: string, redirectTo = '/dashboard') {
    return callback(client, await authorize(await startSignIn(client, redirectTo), sub));
  }

  async function sessionUser(client: TestClient) {
    return (await client.get('/api/v1/auth/session')).json().user as { id: string; email: string; name: string; role: string; emailVerified: boolean } | null;
  }

  async function googleAccountsOf(userId: string) {
    return app.database.db.selectFrom('accounts').select(['providerId', 'accountId']).where('userId', '=', userId).orderBy('providerId').execute();
  }

  it('says Google is available when it is configured, and not otherwise', async () => {
    expect((await app.client().get('/api/v1/auth/providers')).json()).toEqual({ google: true });

    const plain = await createTestApp(engine, { startJobs: false, database: app.database });
    try {
      expect((await plain.client().get('/api/v1/auth/providers')).json()).toEqual({ google: false });
      const start = await plain.client().get('/api/v1/auth/social/google');
      expect(start.statusCode).toBe(404);
    } finally {
      await plain.close();
    }
  });

  it('sends the browser to the provider with state, nonce and an S256 PKCE challenge', async () => {
    const url = await startSignIn(app.client());
    expect(url.origin).toBe(idp.issuer);
    const params = url.searchParams;
    expect(params.get('client_id')).toBe(idp.clientId);
    expect(params.get('response_type')).toBe('code');
    expect(params.get('redirect_uri')).toBe(`${TEST_PUBLIC_URL}/api/auth/callback/google`);
    expect(params.get('scope')?.split(' ')).toEqual(expect.arrayContaining(['openid', 'email', 'profile']));
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('code_challenge')).toMatch(/^[\w-]{43}$/u);
    expect(params.get('state')?.length).toBeGreaterThanOrEqual(32);
    expect(params.get('nonce')?.length).toBeGreaterThanOrEqual(32);
  });

  it('creates a verified client account for a new Google user and signs them in', async () => {
    const account = googleAccount({ name: 'Gia Google' });
    const client = app.client();
    const done = await signInWithGoogle(client, account.sub);
    expect(done.statusCode).toBe(302);
    expect(done.headers.location).toBe('/dashboard');

    const user = await sessionUser(client);
    expect(user).toMatchObject({ email: account.email, name: 'Gia Google', role: 'client', emailVerified: true });
    expect(await googleAccountsOf(user!.id)).toEqual([{ providerId: 'google', accountId: account.sub }]);
    expect((await client.get('/api/v1/me')).json().lastLogin).not.toBeNull();

    // The same Google account later signs in to the same user, wherever it was asked to go.
    const again = app.client();
    const second = await signInWithGoogle(again, account.sub, '/profile');
    expect(second.headers.location).toBe('/profile');
    expect((await sessionUser(again))?.id).toBe(user!.id);
    expect(await googleAccountsOf(user!.id)).toHaveLength(1);
  });

  it('refuses a callback without state, and signs nobody in', async () => {
    const account = googleAccount();
    const client = app.client();
    const url = await authorize(await startSignIn(client), account.sub);
    url.searchParams.delete('state');
    const response = await callback(client, url);
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(`${LOGIN_ERROR}&error=state_not_found`);
    expect(response.headers['set-cookie'] ?? []).not.toEqual(expect.arrayContaining([expect.stringMatching(/session_token=[^;]/u)]));
    expect(await sessionUser(client)).toBeNull();
  });

  it('refuses a callback whose state was tampered with', async () => {
    const account = googleAccount();
    const client = app.client();
    const url = await authorize(await startSignIn(client), account.sub);
    const state = url.searchParams.get('state')!;
    url.searchParams.set('state', `${state.slice(0, -4)}AAAA`);
    const response = await callback(client, url);
    expect(response.headers.location).toMatch(/\/login\?error=google&error=state_/u);
    expect(await sessionUser(client)).toBeNull();
    const created = await app.database.db.selectFrom('users').select('id').where('email', '=', account.email).executeTakeFirst();
    expect(created).toBeUndefined();
  });

  it('refuses a callback delivered to a browser that did not start the sign-in (login CSRF)', async () => {
    const account = googleAccount();
    const url = await authorize(await startSignIn(app.client()), account.sub);
    const victim = app.client();
    const response = await callback(victim, url);
    expect(response.headers.location).toMatch(/\/login\?error=google&error=state_/u);
    expect(await sessionUser(victim)).toBeNull();
  });

  it("refuses another sign-in's authorization code: PKCE binds the code to the browser that asked for it", async () => {
    const victimAccount = googleAccount();
    // The victim's code, issued for the victim's PKCE challenge...
    const victimCode = (await authorize(await startSignIn(app.client()), victimAccount.sub)).searchParams.get('code')!;
    // ...injected into the attacker's own, otherwise valid, sign-in.
    const attacker = app.client();
    const attackerCallback = await authorize(await startSignIn(attacker), googleAccount().sub);
    attackerCallback.searchParams.set('code', victimCode);
    const response = await callback(attacker, attackerCallback);
    expect(response.headers.location).toBe(`${LOGIN_ERROR}&error=invalid_code`);
    expect(await sessionUser(attacker)).toBeNull();
    expect(await app.database.db.selectFrom('users').select('id').where('email', '=', victimAccount.email).executeTakeFirst()).toBeUndefined();
  });

  it('refuses an id_token whose nonce is not the one bound to this sign-in', async () => {
    const account = googleAccount();
    const client = app.client();
    const authorizationUrl = await startSignIn(client);
    authorizationUrl.searchParams.set('nonce', 'a-nonce-this-sign-in-never-asked-for-0123456789');
    const response = await callback(client, await authorize(authorizationUrl, account.sub));
    expect(response.headers.location).toBe(`${LOGIN_ERROR}&error=unable_to_get_user_info`);
    expect(await sessionUser(client)).toBeNull();

    const withoutNonce = app.client();
    const bare = await startSignIn(withoutNonce);
    bare.searchParams.delete('nonce');
    const second = await callback(withoutNonce, await authorize(bare, account.sub));
    expect(second.headers.location).toBe(`${LOGIN_ERROR}&error=unable_to_get_user_info`);
    expect(await sessionUser(withoutNonce)).toBeNull();
  });

  it('links a Google account with the same verified e-mail to the existing password user', async () => {
    const email = `linked.${engine}@example.com`;
    const password = 'Corr3ct!Horse#Battery';
    const existing = await app.services.users.createUser({ email, password, role: 'manager', name: 'Lin Ked' });
    const account = googleAccount({ email, emailVerified: true, name: 'Lin From Google' });

    const client = app.client();
    const done = await signInWithGoogle(client, account.sub);
    expect(done.headers.location).toBe('/dashboard');
    const user = await sessionUser(client);
    expect(user).toMatchObject({ id: existing.id, email, role: 'manager', name: 'Lin Ked' });
    expect(await googleAccountsOf(existing.id)).toEqual([
      { providerId: 'credential', accountId: existing.id },
      { providerId: 'google', accountId: account.sub },
    ]);

    // Both ways in lead to the same user.
    const withPassword = await app.client().post('/api/v1/auth/sign-in', { email, password });
    expect(withPassword.json()).toMatchObject({ twoFactorRequired: false, user: { id: existing.id } });
    const withGoogle = app.client();
    await signInWithGoogle(withGoogle, account.sub);
    expect((await sessionUser(withGoogle))?.id).toBe(existing.id);
  });

  it('asks a user with two-factor on for the code after Google too', async () => {
    const email = `two.factor.${engine}@example.com`;
    const password = 'Corr3ct!Horse#Battery';
    const existing = await app.services.users.createUser({ email, password, role: 'client', name: 'Two Factor' });
    const account = googleAccount({ email, emailVerified: true });
    const settings = app.client();
    await settings.signIn(email, password);
    const setup = await settings.post('/api/v1/me/two-factor/enable', { password });
    const secret = secretFromUri(setup.json().totpUri);
    expect((await settings.post('/api/v1/me/two-factor/confirm', { code: totp(secret) })).statusCode).toBe(200);

    const client = app.client();
    const response = await signInWithGoogle(client, account.sub, '/profile');
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/login?step=two-factor&redirectTo=%2Fprofile');
    expect(await sessionUser(client)).toBeNull();
    // The session the callback created is gone, not just its cookie.
    const sessions = await app.database.db.selectFrom('sessions').select('id').where('userId', '=', existing.id).execute();
    expect(sessions).toHaveLength(1); // the settings browser's

    const wrong = await client.post('/api/v1/auth/two-factor/verify', { code: wrongTotp(secret), kind: 'totp' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error.code).toBe('AUTH_ERROR');
    const verified = await client.post('/api/v1/auth/two-factor/verify', { code: totp(secret), kind: 'totp' });
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toMatchObject({ twoFactorRequired: false, user: { id: existing.id, mfaEnabled: true } });
    expect((await sessionUser(client))?.id).toBe(existing.id);
  });

  it('does not link a Google account whose e-mail the provider has not verified (no takeover)', async () => {
    const email = `target.${engine}@example.com`;
    const existing = await app.services.users.createUser({ email, password: 'Corr3ct!Horse#Battery', role: 'admin', name: 'Tar Get' });
    const impostor = googleAccount({ email, emailVerified: false });

    const client = app.client();
    const response = await signInWithGoogle(client, impostor.sub);
    expect(response.headers.location).toBe(`${LOGIN_ERROR}&error=account_not_linked`);
    expect(await sessionUser(client)).toBeNull();
    expect(await googleAccountsOf(existing.id)).toEqual([{ providerId: 'credential', accountId: existing.id }]);
  });

  it('creates no account from an e-mail the provider has not verified', async () => {
    const account = googleAccount({ emailVerified: false });
    const client = app.client();
    const response = await signInWithGoogle(client, account.sub);
    expect(response.headers.location).toBe(`${LOGIN_ERROR}&error=unable_to_create_user`);
    expect(await sessionUser(client)).toBeNull();
    expect(await app.database.db.selectFrom('users').select('id').where('email', '=', account.email).executeTakeFirst()).toBeUndefined();
  });

  it('returns to /login with the Google error when the user cancels at the provider', async () => {
    googleAccount();
    const client = app.client();
    const browser = new ProviderBrowser();
    const loginPage = location(await browser.fetch(await startSignIn(client)), idp.issuer);
    const cancelled = await browser.fetch(new URL(`${loginPage.pathname}/abort`, idp.issuer), { method: 'POST' });
    const back = location(await browser.fetch(location(cancelled, idp.issuer)), idp.issuer);
    expect(back.searchParams.get('error')).toBe('access_denied');
    const response = await callback(client, back);
    expect(response.headers.location).toMatch(/^\/login\?error=google&error=access_denied/u);
    expect(await sessionUser(client)).toBeNull();
  });

  it('only redirects to paths on this site after sign-in', async () => {
    for (const redirectTo of ['//evil.example.com/x', 'https://evil.example.com/']) {
      const response = await app.client().get(`/api/v1/auth/social/google?redirectTo=${encodeURIComponent(redirectTo)}`);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('VALIDATION_ERROR');
    }
  });
});
