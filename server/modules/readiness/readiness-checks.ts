/**
 * The 24 production readiness items (issue 16 §4; spec part 2 §3: three in each of eight
 * categories) and how each is measured on this installation. docs/readiness.md lists them with
 * their thresholds. Every check reads live facts through the CheckContext and says what it found;
 * none is complete by default.
 */
import { DEFAULT_CONTENT, DEFAULT_CONTACT, DEFAULT_HERO_STATS, SAMPLE_POSTS } from '../../../common/marketing/defaults';
import type { ReadinessAction, ReadinessCategory, ReadinessStatus } from '../../../common/api/readiness';
import type { BlogPostSummary, ContentSectionView, HeroStat } from '../../../common/api/content';
import type { HealthReport } from '../../../common/api/system';
import { CHANNEL_KIND_LABEL } from '../../../common/messaging/channel-label';
import { PAGE_ROUTES, type PageName, SITE_PAGES } from '../../../common/routes';
import { normaliseHost, refusedRange } from '../../lib/outbound-address';
import type { WalArchiver } from './readiness.repository';
import type {
  BackupSummary,
  EmailDeliveries,
  EmailState,
  JobOutcomes,
  ReadinessAdmin,
  ReadinessConfig,
  ReplyOutcomes,
  SiteResponse,
} from './readiness-sources';
import type { ChannelView } from '../../../common/api/channels';

/** What a check reads, each fact loaded at most once per run (readiness.service.ts builds it). */
export interface CheckContext {
  now: Date;
  config: ReadinessConfig;
  engine: 'pglite' | 'postgres';
  admins(): Promise<ReadinessAdmin[]>;
  health(): Promise<HealthReport>;
  /** The last 24 hours. */
  jobOutcomes(): Promise<JobOutcomes>;
  lastBackup(): Promise<BackupSummary | null>;
  /** PostgreSQL only. */
  walArchiver(): Promise<WalArchiver | undefined>;
  migrations(): Promise<{ known: string[]; applied: string[] }>;
  /** HMAC of SMTP_URL and SMTP_FROM; null without SMTP_URL. */
  smtpFingerprint: string | null;
  /** The newest test e-mail sent under the current SMTP configuration, with its outbox row. */
  latestTestEmail(): Promise<{ sentTo: string; createdAt: Date; email: EmailState | undefined } | null>;
  /** The last 24 hours; late: queued for more than EMAIL_LATE_MS. */
  emailDeliveries(): Promise<EmailDeliveries>;
  sections(): Promise<ContentSectionView[]>;
  heroStats(): Promise<HeroStat[]>;
  posts(): Promise<BlogPostSummary[]>;
  channels(): Promise<ChannelView[]>;
  demoWidgetId(): Promise<string | null>;
  /** The conversations created on the last FIRST_RESPONSE_DAYS UTC days. */
  firstResponse(): Promise<{ conversations: number; firstResponseSeconds: number | null }>;
  /** The last 24 hours. */
  replyOutcomes(): Promise<ReplyOutcomes>;
  site(path: string): Promise<SiteResponse>;
  /** A GET of an absolute URL from this server (the public address); throws when nothing answers. */
  fetchPublic(url: string): Promise<{ status: number; body: string; ms: number }>;
  /** Whether WEB_DIST_DIR holds the built web app (index.html). */
  webAppBuilt(): boolean;
}

export interface Outcome {
  status: ReadinessStatus;
  reason: string;
  action?: ReadinessAction | undefined;
}

export interface ReadinessCheck {
  key: string;
  category: ReadinessCategory;
  item: string;
  description: string;
  run(ctx: CheckContext): Promise<Outcome>;
}

// Thresholds (docs/readiness.md).
export const BACKUP_FRESH_HOURS = 26;
export const BACKUP_STALE_DAYS = 7;
export const WRITE_FAST_MS = 100;
export const WRITE_SLOW_MS = 1000;
export const BACKLOG_CRITICAL_FACTOR = 10;
export const FIRST_RESPONSE_DAYS = 7;
export const FIRST_RESPONSE_GOOD_SECONDS = 5 * 60;
export const FIRST_RESPONSE_SLOW_SECONDS = 60 * 60;
export const REPLY_FAILURE_CRITICAL_RATE = 0.02;
export const JOB_FAILURE_CRITICAL_RATE = 0.01;
export const EMAIL_LATE_MS = 10 * 60_000;
export const META_DESCRIPTION_MIN = 50;
/** SMTP_FROM's default (server/config): receiving servers refuse or flag a .local sender. */
export const DEFAULT_SMTP_FROM = 'Parley <no-reply@parley.local>';

const HOUR_S = 3600;
const DAY_S = 24 * HOUR_S;

const complete = (reason: string): Outcome => ({ status: 'complete', reason });
const attention = (reason: string, action?: ReadinessAction): Outcome => ({ status: 'needs-attention', reason, action });
const critical = (reason: string, action?: ReadinessAction): Outcome => ({ status: 'critical', reason, action });

/** A screen of the app that fixes it: the page's canonical path (common/routes.ts) and its query. */
export function link(label: string, page: PageName, search?: Record<string, string>): ReadinessAction {
  const query = search ? `?${new URLSearchParams(search).toString()}` : '';
  return { kind: 'link', label, path: `${PAGE_ROUTES[page].paths[0]}${query}` };
}

/** What the operator does where no screen can (the environment, a command). */
export function instruction(label: string): ReadinessAction {
  return { kind: 'instruction', label, path: null };
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}

/** 42 s, 12 min, 3 h 5 min, 4 days. */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < HOUR_S) return `${Math.round(s / 60)} min`;
  if (s < 2 * DAY_S) {
    const h = Math.floor(s / HOUR_S);
    const m = Math.round((s % HOUR_S) / 60);
    return m === 0 ? `${h} h` : `${h} h ${m} min`;
  }
  return `${Math.round(s / DAY_S)} days`;
}

/** 2026-05-01 07:00 UTC */
export function utc(at: Date): string {
  return `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function percent(rate: number): string {
  const value = rate * 100;
  return `${value < 1 ? value.toFixed(2).replace(/\.?0+$/u, '') : value.toFixed(1).replace(/\.0$/u, '')}%`;
}

function bytes(n: number): string {
  if (n < 1024 * 1024) return `${Math.max(1, Math.round(n / 1024))} KB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(2)} GB`;
}

function list(items: readonly string[], max = 5): string {
  if (items.length <= max) return items.join(', ');
  return `${items.slice(0, max).join(', ')} and ${items.length - max} more`;
}

/** Why a host is not reachable from the internet (a phrase), or null for a public name or address. */
export function localAddress(hostname: string): string | null {
  const host = normaliseHost(hostname);
  if (host === 'localhost' || host.endsWith('.localhost')) return 'this machine (localhost)';
  if (host.endsWith('.local') || host.endsWith('.internal') || host.endsWith('.lan') || (!host.includes('.') && !host.includes(':'))) return 'a local network name';
  if (/^[\d.]+$/u.test(host) || host.includes(':')) return refusedRange(host);
  return null;
}

/** Deep equality of JSON values (section documents against their defaults). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  }
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
    const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return false;
}

/** Whether a section still reads as Parley's default content. */
export function isDefaultSection(section: ContentSectionView): boolean {
  return sameJson(section.data, DEFAULT_CONTENT[section.section]);
}

/** A page's `<title>` and `<meta name="description">` (as public-site.ts writes them). */
export function pageMetadata(html: string): { title: string; description: string } {
  const decode = (text: string) =>
    text
      .replace(/&quot;/gu, '"')
      .replace(/&#39;|&#x27;/gu, "'")
      .replace(/&lt;/gu, '<')
      .replace(/&gt;/gu, '>')
      .replace(/&amp;/gu, '&')
      .trim();
  const title = /<title>([^<]*)<\/title>/u.exec(html)?.[1] ?? '';
  const description = /<meta name="description" content="([^"]*)"/u.exec(html)?.[1] ?? '';
  return { title: decode(title), description: decode(description) };
}

const EMAIL_LINK = link('Open the outbox', 'adminOutbox');

export const READINESS_CHECKS: readonly ReadinessCheck[] = [
  // Security
  {
    key: 'admin-two-factor',
    category: 'Security',
    item: 'Administrators use two-factor authentication',
    description: 'Every enabled administrator account has two-factor authentication (TOTP) turned on. Complete: all of them; critical: none.',
    async run(ctx) {
      const admins = await ctx.admins();
      const without = admins.filter((a) => !a.twoFactorEnabled);
      const fix = link('Turn on two-factor authentication in your profile (each administrator, on their own account)', 'profile', { tab: 'security' });
      if (admins.length === 0) return critical('There is no enabled administrator account.', link('Manage users', 'adminUsers'));
      if (without.length === 0) return complete(admins.length === 1 ? 'The administrator uses two-factor authentication.' : `All ${admins.length} administrators use two-factor authentication.`);
      if (without.length === admins.length) {
        const who = admins.length === 1 ? 'The only administrator has' : `None of the ${admins.length} administrators has`;
        return critical(`${who} two-factor authentication: a stolen password is enough to take over Parley.`, fix);
      }
      return attention(`${without.length} of ${admins.length} administrators ${without.length === 1 ? 'has' : 'have'} no two-factor authentication: ${list(without.map((a) => a.email))}.`, fix);
    },
  },
  {
    key: 'secrets-key',
    category: 'Security',
    item: 'Secrets key set explicitly',
    description:
      'SECRETS_KEY, which seals channel tokens, API keys and the n8n key at rest, is set in the environment instead of generated into DATA_DIR/secrets.key. Critical on PostgreSQL without it (other instances cannot share a key file on this host).',
    async run(ctx) {
      if (ctx.config.secretsKeyFromEnv) return complete('SECRETS_KEY is set in the environment: stored secrets do not depend on a file beside the data.');
      const fix = instruction('Set SECRETS_KEY to the content of DATA_DIR/secrets.key in the server’s environment, keep a copy apart from the backups, and restart');
      if (ctx.engine === 'postgres') {
        return critical(
          'SECRETS_KEY is not set: stored secrets are sealed with the key generated into DATA_DIR/secrets.key on this host. Another instance cannot open them, and losing that file loses every channel token.',
          fix,
        );
      }
      return attention('SECRETS_KEY is not set: stored secrets are sealed with the key generated into DATA_DIR/secrets.key, kept beside the database it protects.', fix);
    },
  },
  {
    key: 'https',
    category: 'Security',
    item: 'Public URL on HTTPS',
    description: 'PUBLIC_URL, the address in links, cookies and the sitemap, uses https:// on a public host name. Over HTTPS sign-in cookies are Secure and HSTS is sent.',
    async run(ctx) {
      const url = new URL(ctx.config.publicUrl);
      const local = localAddress(url.hostname);
      const fix = instruction('Serve Parley behind TLS and set PUBLIC_URL to its https:// address (with TRUST_PROXY=true behind a proxy), then restart');
      if (url.protocol !== 'https:') {
        return critical(`PUBLIC_URL is ${ctx.config.publicUrl}: sessions and passwords travel unencrypted and cookies are not marked Secure.`, fix);
      }
      if (local) return attention(`PUBLIC_URL is ${ctx.config.publicUrl}, an address of ${local}: links in e-mails and the sitemap point where others cannot reach.`, fix);
      return complete(`PUBLIC_URL is ${ctx.config.publicUrl}: cookies are Secure and HSTS is sent.`);
    },
  },

  // Performance
  {
    key: 'database-engine',
    category: 'Performance',
    item: 'PostgreSQL for several instances',
    description: 'The database is a PostgreSQL server (DATABASE_URL), which several Parley instances can share. The embedded database serves one process.',
    async run(ctx) {
      if (ctx.engine === 'postgres') return complete(`PostgreSQL server (DATABASE_URL) with a pool of ${plural(ctx.config.databasePoolSize, 'connection')} per instance: several instances can share it.`);
      return attention(
        'The embedded database (PGlite) runs inside this one process, one statement at a time: Parley cannot run on a second instance or survive this host’s loss without a backup.',
        instruction('Set DATABASE_URL to a PostgreSQL server (restore the data with pg_restore after a dump) to run several instances'),
      );
    },
  },
  {
    key: 'job-backlog',
    category: 'Performance',
    item: 'Background jobs keep up',
    description: `No job (sends, e-mails, webhooks, AI answers) waits past its due time longer than HEALTH_JOB_MAX_AGE_SECONDS; critical at ${BACKLOG_CRITICAL_FACTOR} times that.`,
    async run(ctx) {
      const { jobs } = (await ctx.health()).checks;
      const limit = ctx.config.jobMaxAgeSeconds;
      const fix = instruction('Add workers (JOB_CONCURRENCY) or instances; check the server log for jobs that fail or hang');
      if (jobs.due === null) return critical('The job queue could not be read (the database check failed).', fix);
      const oldest = jobs.oldestDueSeconds ?? 0;
      const waiting = `${plural(jobs.due, 'job')} due now, the oldest waiting ${duration(oldest)} (limit ${duration(limit)})`;
      if (oldest <= limit) return complete(jobs.due === 0 ? 'No job is due: nothing waits in the queue.' : `${waiting}.`);
      if (oldest <= limit * BACKLOG_CRITICAL_FACTOR) return attention(`${waiting}: the workers are behind.`, fix);
      return critical(`${waiting}: the workers are far behind or stopped.`, fix);
    },
  },
  {
    key: 'database-latency',
    category: 'Performance',
    item: 'Database answers quickly',
    description: `The health check's write to the database (a committed upsert) takes at most ${WRITE_FAST_MS} ms; critical over ${WRITE_SLOW_MS} ms or when it fails.`,
    async run(ctx) {
      const { database } = (await ctx.health()).checks;
      const fix = instruction('Check the database server’s load and disk, and the network between it and Parley');
      if (!database.ok || database.writeMs === null) return critical(`The database write failed (${database.error ?? 'unavailable'}).`, fix);
      const ms = `${database.writeMs} ms`;
      if (database.writeMs <= WRITE_FAST_MS) return complete(`A write to the database took ${ms}.`);
      if (database.writeMs <= WRITE_SLOW_MS) return attention(`A write to the database took ${ms} (more than ${WRITE_FAST_MS} ms).`, fix);
      return critical(`A write to the database took ${ms} (more than ${WRITE_SLOW_MS} ms).`, fix);
    },
  },

  // UX
  {
    key: 'channels-connected',
    category: 'UX',
    item: 'Customers can reach a business',
    description: 'At least one active channel (WhatsApp, Messenger, Instagram, website chat, custom platform) is connected for a client, besides Parley’s own demo chat.',
    async run(ctx) {
      const [channels, demo] = await Promise.all([ctx.channels(), ctx.demoWidgetId()]);
      const own = channels.filter((c) => !(c.kind === 'webchat' && demo !== null && c.externalId === demo));
      const active = own.filter((c) => c.status === 'active');
      const disabled = own.length - active.length;
      const fix = link('Connect a channel for a client', 'adminClients');
      if (active.length === 0) {
        return attention(
          `No client channel is active${disabled ? ` (${plural(disabled, 'channel')} disabled)` : ''}: customers cannot write to any business yet.`,
          fix,
        );
      }
      const kinds = new Map<string, number>();
      for (const c of active) kinds.set(CHANNEL_KIND_LABEL[c.kind], (kinds.get(CHANNEL_KIND_LABEL[c.kind]) ?? 0) + 1);
      const clients = new Set(active.map((c) => c.clientId)).size;
      const byKind = [...kinds].map(([label, n]) => `${label} ${n}`).join(', ');
      return complete(`${plural(active.length, 'active channel')} for ${plural(clients, 'client')} (${byKind})${disabled ? `; ${disabled} disabled` : ''}.`);
    },
  },
  {
    key: 'first-response',
    category: 'UX',
    item: 'Customers get a fast first answer',
    description: `The median first response (AI or person) of the conversations started in the last ${FIRST_RESPONSE_DAYS} days is at most ${duration(FIRST_RESPONSE_GOOD_SECONDS)}; critical over ${duration(FIRST_RESPONSE_SLOW_SECONDS)} or when none was answered.`,
    async run(ctx) {
      const { conversations, firstResponseSeconds } = await ctx.firstResponse();
      const fix = link('Let an AI agent answer first', 'agents');
      if (conversations === 0) return attention(`No conversation started in the last ${FIRST_RESPONSE_DAYS} days, so there is no first response to measure.`, link('See the insights', 'adminInsights'));
      if (firstResponseSeconds === null) return critical(`None of the ${plural(conversations, 'conversation')} of the last ${FIRST_RESPONSE_DAYS} days has been answered.`, fix);
      const measured = `Median first response ${duration(firstResponseSeconds)} over ${plural(conversations, 'conversation')} of the last ${FIRST_RESPONSE_DAYS} days`;
      if (firstResponseSeconds <= FIRST_RESPONSE_GOOD_SECONDS) return complete(`${measured}.`);
      if (firstResponseSeconds <= FIRST_RESPONSE_SLOW_SECONDS) return attention(`${measured} (more than ${duration(FIRST_RESPONSE_GOOD_SECONDS)}).`, fix);
      return critical(`${measured} (more than ${duration(FIRST_RESPONSE_SLOW_SECONDS)}).`, fix);
    },
  },
  {
    key: 'replies-delivered',
    category: 'UX',
    item: 'Replies reach customers',
    description: `The replies (AI and people) of the last 24 hours reached the platform: none failed or unconfirmed. Critical when more than ${percent(REPLY_FAILURE_CRITICAL_RATE)} did not.`,
    async run(ctx) {
      const r = await ctx.replyOutcomes();
      const bad = r.failed + r.unknown;
      const total = r.delivered + bad + r.queued;
      const fix = link('Open the conversations to resend them', 'conversations');
      if (total === 0) return complete('No reply was sent in the last 24 hours, so none failed.');
      if (bad === 0) return complete(`All ${plural(total, 'reply', 'replies')} of the last 24 hours reached the platform${r.queued ? ` or are queued (${r.queued})` : ''}.`);
      const measured = `${bad} of ${plural(total, 'reply', 'replies')} of the last 24 hours did not reach the customer (${r.failed} failed, ${r.unknown} not confirmed)`;
      return bad / total > REPLY_FAILURE_CRITICAL_RATE ? critical(`${measured}.`, fix) : attention(`${measured}.`, fix);
    },
  },

  // Technical
  {
    key: 'migrations',
    category: 'Technical',
    item: 'Database migrations current',
    description: 'Every migration this version of Parley has is applied to the database, and the database has none this version does not know (a newer instance).',
    async run(ctx) {
      const { known, applied } = await ctx.migrations();
      const done = new Set(applied);
      const pending = known.filter((name) => !done.has(name));
      const unknown = applied.filter((name) => !known.includes(name));
      if (pending.length > 0) {
        return critical(`${plural(pending.length, 'migration')} not applied: ${list(pending)}.`, instruction('Restart Parley (it applies migrations at start) or run npm run db:migrate'));
      }
      if (unknown.length > 0) {
        return attention(
          `The database has ${plural(unknown.length, 'migration')} this version does not know (${list(unknown)}): a newer Parley migrated it.`,
          instruction('Update this instance to the version the others run'),
        );
      }
      return complete(`All ${plural(known.length, 'migration')} applied; the latest is ${known.at(-1) ?? 'none'}.`);
    },
  },
  {
    key: 'backup',
    category: 'Technical',
    item: 'Recent successful backup',
    description: `A backup finished within the last ${BACKUP_FRESH_HOURS} hours (a daily one): parley backup for the embedded database, WAL archiving (pg_stat_archiver) on PostgreSQL. Critical after ${BACKUP_STALE_DAYS} days or never.`,
    async run(ctx) {
      const nowMs = ctx.now.getTime();
      if (ctx.engine === 'postgres') {
        const wal = await ctx.walArchiver();
        const fix = instruction('Turn on WAL archiving (archive_mode, archive_command) and schedule pg_dump; see README, Backups');
        if (!wal || wal.archiveMode === 'off') {
          return attention('WAL archiving is off on the PostgreSQL server, and Parley cannot see pg_dump runs: no backup can be confirmed.', fix);
        }
        if (wal.lastFailedAt && (!wal.lastArchivedAt || wal.lastFailedAt > wal.lastArchivedAt)) {
          return critical(`WAL archiving is failing: the last attempt failed at ${utc(wal.lastFailedAt)}.`, fix);
        }
        if (!wal.lastArchivedAt) return attention('WAL archiving is on, but no segment has been archived yet.', fix);
        const age = (nowMs - wal.lastArchivedAt.getTime()) / 1000;
        const measured = `The last WAL segment was archived ${duration(age)} ago (${utc(wal.lastArchivedAt)})`;
        if (age <= BACKUP_FRESH_HOURS * HOUR_S) return complete(`${measured}.`);
        return age <= BACKUP_STALE_DAYS * DAY_S ? attention(`${measured}.`, fix) : critical(`${measured}.`, fix);
      }
      const fix = instruction('Run npm run parley -- backup --out FILE daily and keep the files off this host');
      const last = await ctx.lastBackup();
      if (!last) return critical('No backup of the embedded database is recorded (parley backup records each one it takes).', fix);
      const at = new Date(last.createdAt);
      const age = (nowMs - at.getTime()) / 1000;
      const measured = `The last backup was taken ${duration(age)} ago (${utc(at)}, ${bytes(last.bytes)})`;
      if (age <= BACKUP_FRESH_HOURS * HOUR_S) return complete(`${measured}.`);
      return age <= BACKUP_STALE_DAYS * DAY_S ? attention(`${measured}.`, fix) : critical(`${measured}.`, fix);
    },
  },
  {
    key: 'production-mode',
    category: 'Technical',
    item: 'Production build and settings',
    description: 'The built web app is served (WEB_DIST_DIR/index.html), NODE_ENV is production and the log level is not debug or trace (which log message contents).',
    async run(ctx) {
      const { env, logLevel, webDistDir } = ctx.config;
      if (!ctx.webAppBuilt()) return critical(`The web app is not built: ${webDistDir}/index.html is missing, so the portal cannot load.`, instruction('Run npm run build (npm start does it) and restart'));
      const problems: string[] = [];
      if (env !== 'production') problems.push(`NODE_ENV is ${env}`);
      if (logLevel === 'debug' || logLevel === 'trace') problems.push(`LOG_LEVEL is ${logLevel}, which writes message contents to the log`);
      if (problems.length > 0) return attention(`The built web app is served, but ${problems.join(' and ')}.`, instruction('Set NODE_ENV=production and LOG_LEVEL=info, then restart'));
      return complete(`NODE_ENV is production, the built web app is served and the log level is ${logLevel}.`);
    },
  },

  // Email
  {
    key: 'smtp',
    category: 'Email',
    item: 'SMTP configured',
    description: 'SMTP_URL names a mail server, so password resets, verification links and alerts are delivered, and SMTP_FROM is a real sender (not the default no-reply@parley.local).',
    async run(ctx) {
      const { smtpUrl, smtpFrom } = ctx.config;
      if (!smtpUrl) {
        return critical('SMTP_URL is not set: e-mails (password resets, verification links, alerts) stay in the outbox and are never delivered.', instruction('Set SMTP_URL (smtp:// or smtps://) and SMTP_FROM, then restart'));
      }
      const server = smtpServer(smtpUrl);
      if (smtpFrom === DEFAULT_SMTP_FROM) {
        return attention(`SMTP server ${server}, but SMTP_FROM is the default ${smtpFrom}, which receiving servers refuse or mark as spam.`, instruction('Set SMTP_FROM to an address of your domain, then restart'));
      }
      return complete(`SMTP server ${server}, sender ${smtpFrom}.`);
    },
  },
  {
    key: 'test-email',
    category: 'Email',
    item: 'Test e-mail delivered',
    description: 'A test e-mail sent from this page was accepted by the SMTP server configured now (a change of SMTP_URL or SMTP_FROM asks for a new test).',
    async run(ctx) {
      if (!ctx.config.smtpUrl || ctx.smtpFingerprint === null) return critical('SMTP is not configured, so no e-mail can be delivered.', instruction('Configure SMTP first (SMTP_URL), then send a test e-mail'));
      const send: ReadinessAction = { kind: 'send-test-email', label: 'Send a test e-mail', path: null };
      const test = await ctx.latestTestEmail();
      if (!test) return attention('No test e-mail has been sent since SMTP was configured as it is now.', send);
      const { email, sentTo, createdAt } = test;
      if (!email) return attention(`The test e-mail to ${sentTo} of ${utc(createdAt)} is no longer in the outbox.`, send);
      if (email.status === 'sent' && email.transport === 'smtp') {
        return complete(`The test e-mail to ${sentTo} was accepted by the SMTP server at ${utc(email.sentAt ?? createdAt)}.`);
      }
      if (email.status === 'failed') return critical(`The test e-mail to ${sentTo} failed after ${plural(email.attempts, 'attempt')}: ${email.lastError ?? 'unknown error'}.`, send);
      if (email.status === 'queued') {
        const retry = email.lastError ? ` (attempt ${email.attempts} failed: ${email.lastError})` : '';
        return attention(`The test e-mail to ${sentTo} queued at ${utc(createdAt)} has not been delivered yet${retry}.`, send);
      }
      return attention(`The test e-mail to ${sentTo} was kept in the outbox instead of being sent over SMTP.`, send);
    },
  },
  {
    key: 'email-delivery',
    category: 'Email',
    item: 'E-mails delivered in the last 24 hours',
    description: `Every e-mail queued in the last 24 hours was delivered over SMTP: none failed, none kept in the outbox, none queued for more than ${duration(EMAIL_LATE_MS / 1000)}.`,
    async run(ctx) {
      const d = await ctx.emailDeliveries();
      const error = d.lastError ? ` Last error: ${d.lastError}` : '';
      if (d.failed > 0) return critical(`${d.failed} of ${plural(d.total, 'e-mail')} of the last 24 hours failed.${error}`, EMAIL_LINK);
      if (d.late > 0) return attention(`${plural(d.late, 'e-mail')} queued for more than ${duration(EMAIL_LATE_MS / 1000)} (of ${d.total} in the last 24 hours).${error}`, EMAIL_LINK);
      if (d.stored > 0) return attention(`${d.stored} of ${plural(d.total, 'e-mail')} of the last 24 hours were kept in the outbox instead of being sent.`, EMAIL_LINK);
      if (d.total === 0) return complete('No e-mail was due in the last 24 hours, so none failed.');
      return complete(`All ${plural(d.total, 'e-mail')} of the last 24 hours were delivered over SMTP${d.queued ? ` or are being sent (${d.queued})` : ''}.`);
    },
  },

  // Content
  {
    key: 'page-content',
    category: 'Content',
    item: 'Page content changed from the defaults',
    description: 'The Hero, Services, About and Blog page sections and the hero stats no longer read as Parley’s default content. Critical when none was changed.',
    async run(ctx) {
      const [sections, stats] = await Promise.all([ctx.sections(), ctx.heroStats()]);
      const labels: Record<string, string> = { hero: 'Hero', services: 'Services', about: 'About', blog: 'Blog page' };
      const checked = sections.filter((s) => s.section in labels);
      const unchanged = checked.filter(isDefaultSection).map((s) => labels[s.section] ?? s.section);
      const activeStats = stats.filter((s) => s.isActive).map((s) => ({ number: s.number, label: s.label }));
      if (sameJson(activeStats, DEFAULT_HERO_STATS.map((s) => ({ number: s.number, label: s.label })))) unchanged.push('Hero stats');
      const total = checked.length + 1;
      const fix = link('Edit the page content', 'adminDashboard', { tab: 'content' });
      if (unchanged.length === 0) return complete(`All ${total} parts (Hero, hero stats, Services, About, Blog page) were changed from the defaults.`);
      if (unchanged.length === total) return critical('Every page still shows Parley’s default content: the hero, stats, services, about and blog texts.', fix);
      return attention(`${unchanged.length} of ${total} parts still show the defaults: ${unchanged.join(', ')}.`, fix);
    },
  },
  {
    key: 'contact-details',
    category: 'Content',
    item: 'Contact details are real',
    description: 'The Contact section’s e-mail, phone and address are no longer the sample ones visitors would otherwise write to and call.',
    async run(ctx) {
      const contact = (await ctx.sections()).find((s) => s.section === 'contact');
      const data = (contact?.data ?? {}) as Partial<Record<'email' | 'phone' | 'address', string>>;
      const samples = (['email', 'phone', 'address'] as const).filter((field) => data[field] === DEFAULT_CONTACT[field]);
      const fix = link('Edit the contact details', 'adminDashboard', { tab: 'content', section: 'contact' });
      if (samples.length === 0) return complete(`The Contact page shows ${data.email ?? 'no e-mail'} and ${data.phone ?? 'no phone'}.`);
      if (samples.length === 3) return critical(`The Contact page still shows the sample details (${DEFAULT_CONTACT.email}, ${DEFAULT_CONTACT.phone}).`, fix);
      return attention(`The Contact page still shows the sample ${samples.join(' and ')}.`, fix);
    },
  },
  {
    key: 'blog-posts',
    category: 'Content',
    item: 'Blog has posts of your own',
    description: 'At least one published blog post that is not one of the six sample posts as they were seeded.',
    async run(ctx) {
      const published = (await ctx.posts()).filter((p) => p.status === 'published');
      const own = published.filter((p) => !SAMPLE_POSTS.some((s) => s.title === p.title && s.excerpt === p.excerpt));
      const fix = link('Write and publish a post', 'adminDashboard');
      if (own.length > 0) return complete(`${plural(published.length, 'published post')}, ${own.length} of them your own; the newest: “${own[0]?.title ?? ''}”.`);
      if (published.length > 0) return attention(`Only sample posts are published (${published.length}).`, fix);
      return attention('No post is published: the blog page is empty.', fix);
    },
  },

  // SEO
  {
    key: 'sitemap',
    category: 'SEO',
    item: 'Sitemap present',
    description: '/sitemap.xml answers with every public page and published post at the public address (robots.txt names it); the address must be one search engines can reach.',
    async run(ctx) {
      const response = await ctx.site('/sitemap.xml');
      if (response.status !== 200) return critical(`/sitemap.xml answered ${response.status}.`);
      const locations = [...response.body.matchAll(/<loc>([^<]*)<\/loc>/gu)].map((m) => m[1] ?? '');
      if (locations.length === 0) return critical('/sitemap.xml lists no page.');
      const origin = new URL(ctx.config.publicUrl);
      const local = localAddress(origin.hostname);
      const posts = locations.filter((loc) => loc.includes('/blog/')).length;
      const measured = `/sitemap.xml lists ${plural(locations.length, 'URL')} (${plural(posts, 'post')}) at ${origin.origin}`;
      if (local) return critical(`${measured}, an address of ${local} that search engines cannot reach.`, instruction('Set PUBLIC_URL to the public https:// address and restart'));
      return complete(`${measured}.`);
    },
  },
  {
    key: 'page-metadata',
    category: 'SEO',
    item: 'Page titles and descriptions',
    description: `Every public page (${SITE_PAGES.filter((p) => p !== 'blogPost').length} pages and the newest post) answers 200 with its own <title> and a meta description of at least ${META_DESCRIPTION_MIN} characters.`,
    async run(ctx) {
      const paths = SITE_PAGES.filter((page) => page !== 'blogPost').map((page) => PAGE_ROUTES[page].paths[0] as string);
      const newest = (await ctx.posts()).find((p) => p.status === 'published');
      if (newest) paths.push(`/blog/${newest.slug}`);
      const pages = await Promise.all(paths.map(async (path) => ({ path, response: await ctx.site(path) })));
      const failing = pages.filter((p) => p.response.status !== 200);
      const fix = link('Edit the page content the descriptions come from', 'adminDashboard', { tab: 'content' });
      if (failing.length > 0) {
        const first = failing[0]?.response;
        const why = first && first.status === 503 ? ` (${first.body.trim().slice(0, 120)})` : '';
        return critical(`${failing.map((p) => `${p.path} answered ${p.response.status}`).join(', ')}${why}.`, instruction('Run npm run build (the public site is rendered from it) and restart'));
      }
      const problems: string[] = [];
      const titles = new Map<string, string>();
      for (const { path, response } of pages) {
        const meta = pageMetadata(response.body);
        if (meta.title === '') problems.push(`${path} has no title`);
        else if (titles.has(meta.title)) problems.push(`${path} has the same title as ${titles.get(meta.title) ?? ''}`);
        else titles.set(meta.title, path);
        if (meta.description.length < META_DESCRIPTION_MIN) problems.push(`${path}’s description has ${meta.description.length} characters`);
      }
      if (problems.length > 0) return attention(`${list(problems, 4)}.`, fix);
      return complete(`All ${plural(pages.length, 'page')} have their own title and a description of ${META_DESCRIPTION_MIN} characters or more.`);
    },
  },
  {
    key: 'public-reachable',
    category: 'SEO',
    item: 'Site answers at its public address',
    description: 'A request from this server to PUBLIC_URL/robots.txt reaches this installation (its answer names this sitemap) within 5 seconds: DNS, TLS and the proxy work.',
    async run(ctx) {
      const origin = new URL(ctx.config.publicUrl);
      const fix = instruction('Point the DNS name at Parley’s proxy or load balancer and check its TLS certificate');
      const local = localAddress(origin.hostname);
      if (local) return attention(`PUBLIC_URL ${origin.origin} is an address of ${local}: nobody else can reach it.`, instruction('Set PUBLIC_URL to the public https:// address and restart'));
      const url = `${ctx.config.publicUrl}/robots.txt`;
      try {
        const response = await ctx.fetchPublic(url);
        if (response.status !== 200) return attention(`${url} answered ${response.status}.`, fix);
        if (!response.body.includes(`Sitemap: ${ctx.config.publicUrl}/sitemap.xml`)) return attention(`${url} answered, but not with this installation’s robots.txt: something else serves that address.`, fix);
        return complete(`${url} answered in ${response.ms} ms.`);
      } catch (error) {
        // Seen from inside: a network that does not route back to its own public address (no NAT hairpin) fails here too.
        return attention(`${url} could not be fetched from this server: ${error instanceof Error ? error.message : String(error)}.`, fix);
      }
    },
  },

  // Monitoring
  {
    key: 'health',
    category: 'Monitoring',
    item: 'Health checks green',
    description: '/api/v1/health reports ok: a database write, free disk space for the embedded database and no job backlog.',
    async run(ctx) {
      const report = await ctx.health();
      const { database, jobs, disk } = report.checks;
      const parts = [
        database.ok ? `database write ${database.writeMs ?? '?'} ms` : `database ${database.error ?? 'failing'}`,
        jobs.due === null ? 'job queue unknown' : `${plural(jobs.due, 'job')} due`,
        ...(disk ? [disk.ok ? `disk ${disk.freePercent ?? '?'}% free` : `disk low (${disk.freePercent ?? '?'}% free)`] : []),
      ];
      const measured = parts.join(', ');
      const fix = instruction('See /api/v1/health and the server log for the failing check');
      if (report.status === 'ok') return complete(`Health is ok: ${measured}.`);
      if (report.status === 'degraded') return attention(`Health is degraded (${report.failing.join(', ')}): ${measured}.`, fix);
      return critical(`Health is failing (${report.failing.join(', ')}): ${measured}.`, fix);
    },
  },
  {
    key: 'job-errors',
    category: 'Monitoring',
    item: 'Background job error rate (24 h)',
    description: `No background job failed for good (after its retries) in the last 24 hours; critical above ${percent(JOB_FAILURE_CRITICAL_RATE)} of the jobs that finished.`,
    async run(ctx) {
      const { completed, failed, failedByName } = await ctx.jobOutcomes();
      const total = completed + failed;
      if (total === 0) return complete('No background job finished in the last 24 hours, so none failed.');
      if (failed === 0) return complete(`${plural(total, 'job')} finished in the last 24 hours; none failed.`);
      const which = list(failedByName.map((f) => `${f.name} ${f.count}`), 4);
      const measured = `${failed} of ${plural(total, 'job')} of the last 24 hours failed (${percent(failed / total)}): ${which}`;
      const fix = instruction('Look for "job failed" in the server log to see why');
      return failed / total > JOB_FAILURE_CRITICAL_RATE ? critical(`${measured}.`, fix) : attention(`${measured}.`, fix);
    },
  },
  {
    key: 'admin-alerts',
    category: 'Monitoring',
    item: 'Alerts reach an administrator by e-mail',
    description: 'At least one enabled administrator takes e-mail notifications and SMTP is configured, so alerts (this checklist’s drops, webhooks turned off, contact messages) reach someone outside the app.',
    async run(ctx) {
      const admins = (await ctx.admins()).filter((a) => a.notificationPreferences.emailNotifications);
      const fix = link('Turn on e-mail notifications in your profile', 'profile', { tab: 'notifications' });
      if (admins.length === 0) return attention('No administrator takes e-mail notifications: alerts are only shown in the app.', fix);
      if (!ctx.config.smtpUrl) {
        return attention(`${plural(admins.length, 'administrator')} ${admins.length === 1 ? 'takes' : 'take'} e-mail notifications, but SMTP is not configured: the e-mails stay in the outbox.`, instruction('Set SMTP_URL, then restart'));
      }
      return complete(`${plural(admins.length, 'administrator')} ${admins.length === 1 ? 'gets' : 'get'} alerts by e-mail: ${list(admins.map((a) => a.email), 3)}.`);
    },
  },
];

/** The SMTP server of SMTP_URL as host:port, never its credentials. */
export function smtpServer(smtpUrl: string): string {
  try {
    const url = new URL(smtpUrl);
    const port = url.port || (url.protocol === 'smtps:' ? '465' : '25');
    return `${url.hostname}:${port}${url.protocol === 'smtps:' ? ' (TLS)' : ''}`;
  } catch {
    return 'from SMTP_URL';
  }
}
