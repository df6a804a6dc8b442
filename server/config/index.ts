/**
 * Every environment variable Parley reads, parsed once at start. The README's configuration table
 * lists the same variables; keep them in step.
 */
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_AUTO_DISABLE_FAILURES } from '../../common/api/hooks';
import { parseOutboundAllowlist, type OutboundAllowlist } from '../lib/outbound-address';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('localhost'),
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//u, 'DATABASE_URL must be a postgres:// URL')
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: bool.default(false),
  AUTH_SECRET: z.string().min(32, 'AUTH_SECRET must be at least 32 characters').optional(),
  SECRETS_KEY: z.string().min(32, 'SECRETS_KEY must be at least 32 characters').optional(),
  GRAPH_API_BASE_URL: z.url().default('https://graph.facebook.com'),
  GRAPH_API_VERSION: z.string().regex(/^v\d+\.\d+$/u, 'GRAPH_API_VERSION looks like v21.0').default('v21.0'),
  GRAPH_API_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  LLM_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(8_000),
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  API_KEY_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  ADMIN_EMAIL: z.string().optional(),
  ADMIN_PASSWORD: z.string().optional(),
  ADMIN_NAME: z.string().default('Administrator'),
  SMTP_URL: z.string().regex(/^smtps?:\/\//u, 'SMTP_URL must be an smtp:// or smtps:// URL').optional(),
  SMTP_FROM: z.string().default('Parley <no-reply@parley.local>'),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  GOOGLE_ISSUER: z.url().default('https://accounts.google.com'),
  // 0: this instance runs no job workers (a web-only instance; others on the database do the work).
  JOB_CONCURRENCY: z.coerce.number().int().min(0).max(64).default(8),
  WEB_DIST_DIR: z.string().optional(),
  DEMO_WIDGET: bool.default(true),
  DEMO_CLIENT_NAME: z.string().trim().min(1).max(200).default('Parley'),
  // off: the embedded engine trains without pre-trained word vectors (engines/embedded/word-vectors.ts).
  PARLEY_WORD_VECTORS: z.enum(['on', 'off']).default('on'),
  // off: the service-level rows and rollups are not kept current (measuring what keeping them costs; docs/insights.md).
  INSIGHTS_UPKEEP: z.enum(['on', 'off']).default('on'),
  // /api/v1/health: the embedded database's disk fails below either figure; older due jobs are "degraded".
  HEALTH_MIN_FREE_MB: z.coerce.number().min(0).default(100),
  HEALTH_MIN_FREE_PERCENT: z.coerce.number().min(0).max(100).default(1),
  HEALTH_JOB_MAX_AGE_SECONDS: z.coerce.number().int().min(1).default(300),
  // Minutes an automation execution may go without any word from its workflow before it becomes an error.
  AUTOMATION_SILENCE_TIMEOUT: z.coerce.number().positive().max(7 * 24 * 60).default(60),
  // Consecutive failed delivery attempts (spanning at least a day) before a webhook subscription turns inactive.
  WEBHOOK_AUTO_DISABLE_FAILURES: z.coerce.number().int().min(1).max(10_000).default(DEFAULT_AUTO_DISABLE_FAILURES),
  // Private hosts a user-given URL (API channel callback, LLM base URL) may reach: names, IPs, CIDRs.
  OUTBOUND_ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((value, ctx) => {
      try {
        return parseOutboundAllowlist(value);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: error instanceof Error ? error.message : String(error) });
        return z.NEVER;
      }
    }),
});

export type Env = z.input<typeof envSchema>;

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  /** Origin used in links (e-mails, OAuth callbacks), without a trailing slash. */
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  databasePoolSize: number;
  logLevel: string;
  trustProxy: boolean;
  authSecret: string | undefined;
  secretsKey: string | undefined;
  graphApi: { baseUrl: string; version: string; timeoutMs: number };
  authRateLimitPerMinute: number;
  /** Requests per minute per API key (each instance counts its own). */
  apiKeyRateLimitPerMinute: number;
  admin: { email: string | undefined; password: string | undefined; name: string };
  smtp: { url: string | undefined; from: string };
  google: { clientId: string; clientSecret: string; issuer: string } | undefined;
  /** Job workers in this instance; 0 runs none. */
  jobConcurrency: number;
  webDistDir: string;
  /** Parley's own demo client whose website chat the marketing pages embed (null: none). */
  demoClientName: string | null;
  /** How long one LLM call (an AI answer or summary) may take before the embedded engine answers. */
  llmTimeoutMs: number;
  /** Whether the embedded engine may use the packaged pre-trained word vectors (cached under dataDir/embeddings). */
  wordVectors: boolean;
  /**
   * Whether the domain events mark conversations and queue `insights.recompute` and `insights.service-level` jobs (INSIGHTS_UPKEEP). Off, the
   * Insights, AI Summary and dashboard figures stop following new activity: only for measuring
   * what keeping them costs (the insights bench).
   */
  insightsUpkeep: boolean;
  /** /api/v1/health thresholds. */
  health: { minFreeBytes: number; minFreePercent: number; jobMaxAgeSeconds: number };
  /** What requests to user-given URLs may reach besides public addresses (server/lib/guarded-http.ts). */
  outboundAllowlist: OutboundAllowlist;
  /** How long (ms) an automation execution may hear nothing from its workflow (AUTOMATION_SILENCE_TIMEOUT, in minutes). */
  automationSilenceTimeoutMs: number;
  /** Consecutive failed delivery attempts over at least a day that turn a webhook subscription inactive (WEBHOOK_AUTO_DISABLE_FAILURES). */
  webhookAutoDisableFailures: number;
}

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Treat empty strings as unset, as shells and .env files often leave them.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/u, '');
  const google =
    e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET
      ? { clientId: e.GOOGLE_CLIENT_ID, clientSecret: e.GOOGLE_CLIENT_SECRET, issuer: e.GOOGLE_ISSUER }
      : undefined;
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    authSecret: e.AUTH_SECRET,
    secretsKey: e.SECRETS_KEY,
    graphApi: { baseUrl: e.GRAPH_API_BASE_URL.replace(/\/+$/u, ''), version: e.GRAPH_API_VERSION, timeoutMs: e.GRAPH_API_TIMEOUT_MS },
    authRateLimitPerMinute: e.AUTH_RATE_LIMIT_PER_MINUTE,
    apiKeyRateLimitPerMinute: e.API_KEY_RATE_LIMIT_PER_MINUTE,
    admin: { email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD, name: e.ADMIN_NAME },
    smtp: { url: e.SMTP_URL, from: e.SMTP_FROM },
    google,
    jobConcurrency: e.JOB_CONCURRENCY,
    webDistDir: path.resolve(e.WEB_DIST_DIR ?? 'dist/web'),
    demoClientName: e.DEMO_WIDGET ? e.DEMO_CLIENT_NAME : null,
    llmTimeoutMs: e.LLM_TIMEOUT_MS,
    wordVectors: e.PARLEY_WORD_VECTORS === 'on',
    insightsUpkeep: e.INSIGHTS_UPKEEP === 'on',
    health: { minFreeBytes: e.HEALTH_MIN_FREE_MB * 1024 * 1024, minFreePercent: e.HEALTH_MIN_FREE_PERCENT, jobMaxAgeSeconds: e.HEALTH_JOB_MAX_AGE_SECONDS },
    outboundAllowlist: e.OUTBOUND_ALLOWED_HOSTS,
    automationSilenceTimeoutMs: Math.round(e.AUTOMATION_SILENCE_TIMEOUT * 60_000),
    webhookAutoDisableFailures: e.WEBHOOK_AUTO_DISABLE_FAILURES,
  };
}
