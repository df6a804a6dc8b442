/**
 * A whole Parley app on a test database, driven through `app.inject` (no sockets), with a cookie
 * jar and the CSRF double-submit handled like the web client does.
 */
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { fileURLToPath } from 'node:url';
import { inject } from 'light-my-request';
import { type Logger, pino } from 'pino';
import { type BuildAppOptions, buildApp, type ParleyApp } from '../../server/app';
import { type Config, loadConfig } from '../../server/config';
import type { SiteRenderer } from '../../common/site';
import type { Engine } from '../../server/db/database';
import { CSRF_COOKIE, CSRF_HEADER } from '../../server/http/csrf';
import type { Clock } from '../../server/lib/clock';
import type { PasswordObserver } from '../../server/lib/password-hash';
import type { EmailTransport } from '../../server/modules/email/email.transport';
import type { ExecutionReconciler } from '../../server/modules/automations';
import { createTestDatabase, type TestDatabase } from './database';

export const TEST_PUBLIC_URL = 'http://localhost:3000';
/** The site renderer's source, loaded through Vitest (the root tsconfig has no JSX: a path, not an import). */
const SITE_RENDERER_SOURCE = fileURLToPath(new URL('../../web/src/app/site/render.tsx', import.meta.url));
/** What the server-rendered pages link in tests (there is no build manifest). */
export const TEST_SITE_ASSETS = { scripts: ['/assets/site-test.js'], styles: ['/assets/site-test.css'] };

export function testConfig(env: Record<string, string | undefined> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PUBLIC_URL: TEST_PUBLIC_URL,
    AUTH_SECRET: 'test-secret-test-secret-test-secret-0123456789',
    SECRETS_KEY: 'test-secrets-key-test-secrets-key-0123456789',
    AUTH_RATE_LIMIT_PER_MINUTE: '10000',
    WEB_DIST_DIR: '/nonexistent-web-dist',
    DATA_DIR: '/nonexistent-data-dir',
    // Tests never reach Meta: jobs that call the Graph API (sends, contact profiles) get a refused
    // connection unless a test points this at its fake Graph API.
    GRAPH_API_BASE_URL: 'http://127.0.0.1:9',
    ...env,
  });
}

export interface TestAppOptions {
  env?: Record<string, string | undefined>;
  clock?: Clock;
  startJobs?: boolean;
  emailTransport?: EmailTransport;
  /** Reuse a database (e.g. a second instance on the same PostgreSQL schema). */
  database?: TestDatabase;
  /** Capture the log (default: a silent logger, or TEST_LOG_LEVEL). */
  logger?: Logger;
  /** The control token the CLI endpoint accepts (default: none, so it refuses everyone). */
  controlToken?: string;
  /** Told of every password hashed and checked by sign-in. */
  passwordObserver?: PasswordObserver;
  /** n8n's word on silent automation executions. */
  executionReconciler?: ExecutionReconciler;
  /** The workflows module's ports (automations, n8n), as `BuildAppOptions.workflowPorts`. */
  workflowPorts?: BuildAppOptions['workflowPorts'];
  /** More consumers of the public events (`BuildAppOptions.eventSinks`). */
  eventSinks?: BuildAppOptions['eventSinks'];
  /** `BuildAppOptions.insightsBatchDelayMs`; default 0 here (the figures at once). */
  insightsBatchDelayMs?: number;
}

export interface TestApp extends ParleyApp {
  /**
   * A request through the app's HTTP handler (`ParleyApp.handle`: webhook deliveries before
   * Fastify, the rest Fastify), as the server would receive it, without a socket.
   */
  inject(options: InjectOptions): Promise<LightMyRequestResponse>;
  database: TestDatabase;
  config: Config;
  client(): TestClient;
  /** Closes the app and destroys its database. */
  destroy(): Promise<void>;
}

export async function createTestApp(engine: Engine, options: TestAppOptions = {}): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase(engine));
  const config = testConfig(options.env);
  const app = await buildApp({
    config,
    database,
    clock: options.clock,
    logger: options.logger ?? pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    controlToken: () => options.controlToken,
    startJobs: options.startJobs,
    emailTransport: options.emailTransport,
    passwordObserver: options.passwordObserver,
    executionReconciler: options.executionReconciler,
    workflowPorts: options.workflowPorts,
    eventSinks: options.eventSinks,
    // The service-level figures at once (no batching delay), unless a test asks for it.
    insightsBatchDelayMs: options.insightsBatchDelayMs ?? 0,
    // The public site from its source (Vitest compiles it): tests run without a build.
    site: { loadRenderer: async () => ((await import(/* @vite-ignore */ SITE_RENDERER_SOURCE)) as { default: SiteRenderer }).default, assets: TEST_SITE_ASSETS },
  });
  return {
    ...app,
    database,
    config,
    inject: (injectOptions) => injectThrough(app, injectOptions),
    client: () => new TestClient(app),
    async destroy() {
      await app.close();
      if (!options.database) await database.destroy();
    },
  };
}

/** A request through `app.handle` (light-my-request, as Fastify's own inject uses it). */
export function injectThrough(app: ParleyApp, options: InjectOptions): Promise<LightMyRequestResponse> {
  return inject(app.handle, options);
}

export interface TestRequest {
  method?: InjectOptions['method'];
  url: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Leave the CSRF header out (to test the protection). */
  withoutCsrf?: boolean;
}

export class TestClient {
  readonly cookies = new Map<string, string>([[CSRF_COOKIE, 'test-csrf-token']]);

  constructor(private readonly app: ParleyApp) {}

  async request(req: TestRequest): Promise<LightMyRequestResponse> {
    const method = req.method ?? 'GET';
    const headers: Record<string, string> = { ...req.headers };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (!req.withoutCsrf && method !== 'GET' && method !== 'HEAD') {
      headers[CSRF_HEADER] = this.cookies.get(CSRF_COOKIE) ?? '';
    }
    const response = await injectThrough(this.app, {
      method,
      url: req.url,
      headers,
      ...(req.body !== undefined ? { payload: req.body as InjectOptions['payload'] } : {}),
    });
    for (const cookie of response.cookies) {
      const expired = cookie.maxAge === 0 || (cookie.expires instanceof Date && cookie.expires.getTime() < Date.now());
      if (expired || cookie.value === '') this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    return response;
  }

  get(url: string, headers?: Record<string, string>) {
    return this.request({ method: 'GET', url, headers });
  }
  post(url: string, body?: unknown, headers?: Record<string, string>) {
    return this.request({ method: 'POST', url, body, headers });
  }
  patch(url: string, body?: unknown) {
    return this.request({ method: 'PATCH', url, body });
  }
  put(url: string, body?: unknown) {
    return this.request({ method: 'PUT', url, body });
  }
  delete(url: string) {
    return this.request({ method: 'DELETE', url });
  }

  async signIn(email: string, password: string): Promise<LightMyRequestResponse> {
    const response = await this.post('/api/v1/auth/sign-in', { email, password });
    if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
    return response;
  }
}

/** Creates a verified user with a role and returns a client signed in as that user. */
export async function signedInClient(
  app: TestApp,
  role: 'admin' | 'manager' | 'client',
  overrides: { email?: string; password?: string; name?: string } = {},
): Promise<{ client: TestClient; userId: string; email: string; password: string }> {
  const email = overrides.email ?? `${role}-${Math.random().toString(36).slice(2, 10)}@example.com`;
  const password = overrides.password ?? 'Corr3ct!Horse#Battery';
  const user = await app.services.users.createUser({ email, password, role, name: overrides.name ?? `Test ${role}` });
  const client = app.client();
  await client.signIn(email, password);
  return { client, userId: user.id, email, password };
}
