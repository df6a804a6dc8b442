/**
 * What the readiness checks read from the rest of Parley. The module imports no other module:
 * `app.ts` fills these ports in from the services that own each fact (users, system, email,
 * content, channels, insights, conversations, notifications) and from the HTTP server itself.
 */
import type { ChannelView } from '../../../common/api/channels';
import type { BlogPostSummary, ContentSectionView, HeroStat } from '../../../common/api/content';
import type { NotificationPreferences } from '../../../common/api/me';
import type { HealthReport } from '../../../common/api/system';
import type { Db } from '../../db/database';
import type { RenderedEmail } from '../email';

/** The configuration the checks judge (server/config, parsed once at start). */
export interface ReadinessConfig {
  env: 'development' | 'production' | 'test';
  publicUrl: string;
  /** SECRETS_KEY came from the environment (not generated into DATA_DIR/secrets.key). */
  secretsKeyFromEnv: boolean;
  /** DATABASE_URL's pool size, when it is set. */
  databasePoolSize: number;
  smtpUrl: string | undefined;
  smtpFrom: string;
  logLevel: string;
  /** Where the built web app is served from (WEB_DIST_DIR). */
  webDistDir: string;
  /** HEALTH_JOB_MAX_AGE_SECONDS: how long a due job may wait before the health check calls it a backlog. */
  jobMaxAgeSeconds: number;
}

/** An enabled administrator. */
export interface ReadinessAdmin {
  id: string;
  email: string;
  fullName: string;
  twoFactorEnabled: boolean;
  notificationPreferences: NotificationPreferences;
}

export interface JobOutcomes {
  completed: number;
  failed: number;
  failedByName: { name: string; count: number }[];
}

export interface BackupSummary {
  createdAt: string;
  bytes: number;
}

export interface EmailDeliveries {
  total: number;
  sent: number;
  stored: number;
  failed: number;
  queued: number;
  late: number;
  lastError: string | null;
}

/** One e-mail of the outbox as the test e-mail check reads it. */
export interface EmailState {
  status: 'queued' | 'sent' | 'stored' | 'failed';
  transport: 'smtp' | 'outbox' | null;
  attempts: number;
  lastError: string | null;
  sentAt: Date | null;
}

export interface ReplyOutcomes {
  delivered: number;
  failed: number;
  unknown: number;
  queued: number;
}

/** A response of this server to an in-process GET (the public site's pages, sitemap, robots.txt). */
export interface SiteResponse {
  status: number;
  body: string;
}

export interface ReadinessSources {
  config: ReadinessConfig;
  engine: 'pglite' | 'postgres';
  /** The enabled administrators (users). */
  admins(db?: Db): Promise<ReadinessAdmin[]>;
  /** The health report (system). */
  health(): Promise<HealthReport>;
  /** Background jobs finished since a time (system). */
  jobOutcomes(since: Date): Promise<JobOutcomes>;
  /** The newest backup Parley made of the embedded database (system), or null. */
  lastBackup(): Promise<BackupSummary | null>;
  /** E-mails created since a time by outcome; `late`: queued longer than `lateAfterMs` (email). */
  emailDeliveries(since: Date, lateAfterMs: number): Promise<EmailDeliveries>;
  /** One e-mail of the outbox (email). */
  findEmail(id: string): Promise<EmailState | undefined>;
  /** Queues an e-mail (email), in the caller's transaction when `db` is one; its outbox id. */
  sendEmail(to: string, email: RenderedEmail, db?: Db): Promise<string>;
  /** Tells a user in the app (notifications), in the caller's transaction. */
  notify(userId: string, input: { kind: string; title: string; body: string; link: string }, db: Db): Promise<unknown>;
  /** Every page section, stored or default (content). */
  sections(): Promise<ContentSectionView[]>;
  /** The hero stats (content). */
  heroStats(): Promise<HeroStat[]>;
  /** Every blog post, drafts too (content). */
  posts(): Promise<BlogPostSummary[]>;
  /** Every channel of every client (channels). */
  channels(): Promise<ChannelView[]>;
  /** The demo widget's id (its webchat channel's external id) when it is active (widget). */
  demoWidgetId(): Promise<string | null>;
  /** Every client's median first response of the conversations created on these UTC days (insights). */
  firstResponse(from: string, to: string): Promise<{ conversations: number; firstResponseSeconds: number | null }>;
  /** Every client's replies created since a time, by delivery outcome (conversations). */
  replyOutcomes(since: Date): Promise<ReplyOutcomes>;
  /** This server's answer to a GET of a public path, in process (the HTTP server). */
  site(path: string): Promise<SiteResponse>;
}
