/**
 * Test accounts: the first administrator the server creates from ADMIN_EMAIL / ADMIN_PASSWORD, and
 * users of any role created through the admin API (active and verified at once).
 */
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import type { Role } from '../../common/roles';

export const ADMIN = { email: 'admin@parley.test', password: 'Adm1n!Passw0rd#' } as const;

/** Meets the sign-up policy with the top strength score. */
export const STRONG_PASSWORD = 'Str0ng!Passw0rd';

export interface TestUser {
  email: string;
  password: string;
  name: string;
  role: Role;
}

export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}@parley.test`;
}

async function csrfToken(request: APIRequestContext): Promise<string> {
  const response = await request.get('/api/v1/auth/session');
  expect(response.ok()).toBe(true);
  const cookies = (await request.storageState()).cookies;
  const csrf = cookies.find((c) => c.name === 'parley_csrf')?.value;
  if (!csrf) throw new Error('The server did not set the parley_csrf cookie');
  return csrf;
}

/** Signs in through the API; with `page.request` the browser context shares the session cookie. */
export async function signInByApi(request: APIRequestContext, email: string, password: string): Promise<void> {
  const csrf = await csrfToken(request);
  const response = await request.post('/api/v1/auth/sign-in', {
    data: { email, password },
    headers: { 'x-csrf-token': csrf },
  });
  expect(response.status(), await response.text()).toBe(200);
}

export async function signInPage(page: Page, email: string, password: string): Promise<void> {
  await signInByApi(page.request, email, password);
}

/** Creates an active, verified user of `role` through the admin API, in a throwaway API context. */
export async function createUser(
  playwright: { request: { newContext: (options: { baseURL: string }) => Promise<APIRequestContext> } },
  baseURL: string,
  role: Role,
  prefix: string = role,
): Promise<TestUser> {
  const admin = await playwright.request.newContext({ baseURL });
  try {
    await signInByApi(admin, ADMIN.email, ADMIN.password);
    const csrf = await csrfToken(admin);
    const user: TestUser = {
      email: uniqueEmail(prefix),
      password: STRONG_PASSWORD,
      name: `${role.charAt(0).toUpperCase()}${role.slice(1)} Tester`,
      role,
    };
    const response = await admin.post('/api/v1/users', {
      data: { email: user.email, name: user.name, password: user.password, role },
      headers: { 'x-csrf-token': csrf },
    });
    expect(response.status(), await response.text()).toBe(201);
    return user;
  } finally {
    await admin.dispose();
  }
}

/** The href of the newest outbox e-mail to `to` whose subject matches, read as an admin. */
export async function latestEmailLink(
  playwright: { request: { newContext: (options: { baseURL: string }) => Promise<APIRequestContext> } },
  baseURL: string,
  to: string,
  pathPart: string,
): Promise<string> {
  const admin = await playwright.request.newContext({ baseURL });
  try {
    await signInByApi(admin, ADMIN.email, ADMIN.password);
    let link: string | undefined;
    await expect
      .poll(
        async () => {
          const list = (await (await admin.get('/api/v1/admin/outbox')).json()) as {
            emails: { id: string; to: string; createdAt: string }[];
          };
          const mine = list.emails.filter((e) => e.to === to).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
          for (const email of mine) {
            const full = (await (await admin.get(`/api/v1/admin/outbox/${email.id}`)).json()) as { textBody: string };
            link = full.textBody.match(/https?:\/\/\S+/gu)?.find((url) => url.includes(pathPart));
            if (link) return link;
          }
          return undefined;
        },
        { timeout: 15_000 },
      )
      .toBeDefined();
    return link!;
  } finally {
    await admin.dispose();
  }
}
