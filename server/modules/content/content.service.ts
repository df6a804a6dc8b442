/**
 * Page content and hero stats (issue 15 §1, §2; spec part 2 "Content management", §3, §8; part 1
 * §3 hero stat, §5 sanitising, §7 hero-stat calls), and what the public pages read.
 *
 * - A section is one JSON document, validated and sanitised by SECTION_SCHEMAS, stored from its
 *   first save (the defaults with version 0 until then). A save, reset or restore names the
 *   version it was made on and stores the next one only while that is still the stored version —
 *   one statement, so of two concurrent saves exactly one wins; the other is a 409. Each writes
 *   its revision in the same transaction.
 * - Reset to Defaults of the hero section also puts back the default hero stats.
 * - Hero stats are the spec's own entity: saved as a list, shown/hidden, reordered — every change
 *   of the list under one advisory lock, so positions stay 0..n-1 whatever runs at once.
 * - Every write bumps `content_state` (`contentVersion()`), which the public reads (and a
 *   rendered-page cache) compare to know when to read again.
 */
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import {
  type AboutContent,
  type BlogPageContent,
  type ContactContent,
  conflictMessage,
  CONTENT_SECTIONS,
  type ContentSectionKey,
  type ContentSectionView,
  type contentRevision,
  type FeaturesContent,
  type HeroContent,
  type HeroStat,
  INTEGRATION_IDS,
  INTEGRATION_NAMES,
  type IntegrationId,
  type IntegrationStatus,
  type PublicBlogPost,
  type PublicContent,
  type reorderHeroStatInput,
  type saveHeroStatsInput,
  type SavedSection,
  SECTION_SCHEMAS,
  type SectionData,
  type ServicesContent,
} from '../../../common/api/content';
import { DEFAULT_CONTENT, DEFAULT_HERO_STATS } from '../../../common/marketing/defaults';
import { isHeavilySanitized, sanitizeText } from '../../../common/validation/sanitize';
import type { Db } from '../../db/database';
import type { ChannelKind } from '../../db/schema';
import { AppError, notFound } from '../../lib/errors';
import type { BlogPostsService, PublicBlogPostSummary } from './blog-posts.service';
import { etagOf } from '../../http/conditional-get';
import type { ContentRepository, HeroStatRow, RevisionRow, SectionRow } from './content.repository';

export type SaveHeroStatsCommand = z.output<typeof saveHeroStatsInput>;
export type ReorderHeroStatCommand = z.output<typeof reorderHeroStatInput>;
export type ContentRevisionView = z.infer<typeof contentRevision>;
export type ContentRevisionDetail = ContentRevisionView & { data: Record<string, unknown> };

/** Revisions listed per section (the newest). */
export const REVISIONS_LISTED = 200;

/** Which integration each channel kind is on the Features page. */
const INTEGRATION_OF_CHANNEL: Record<ChannelKind, IntegrationId> = {
  whatsapp: 'whatsapp',
  instagram: 'instagram',
  messenger: 'messenger',
  webchat: 'website',
  api: 'custom',
};

/** The integrations Parley supports end to end: its channel adapters, and the built n8n and Zapier integrations. */
export function liveIntegrations(channelKinds: Iterable<ChannelKind>, others: readonly IntegrationId[] = ['n8n', 'zapier']): IntegrationId[] {
  return [...new Set([...[...channelKinds].map((kind) => INTEGRATION_OF_CHANNEL[kind]), ...others])];
}

export interface ContentServiceDeps {
  db: Db;
  repository: ContentRepository;
  posts: BlogPostsService;
  /** Integrations shown as Live unless the Features section overrides them; the others are 'Coming Soon'. */
  liveIntegrations: readonly IntegrationId[];
  /** Called after every committed change of a section or stat (a rendered-page cache on this instance drops its pages). */
  onChange?: () => void;
}

/** The public pages' content, typed: what `GET /api/v1/public/content` answers. */
export interface PublicSections {
  hero: HeroContent;
  /** Active stats, in order. */
  heroStats: { number: string; label: string }[];
  services: ServicesContent;
  blog: BlogPageContent;
  about: AboutContent;
  contact: ContactContent;
  integrations: PublicContent['integrations'];
  /** The newest save of a section or stat (ISO), null when there is none. */
  updatedAt: string | null;
}

/** Everything the public pages show, for server rendering in one call (a `SiteContent`, common/site.ts). */
export interface PublicSite extends PublicSections {
  /** Published posts without their bodies, most recently published first (`findPublishedPost` has a body). */
  posts: PublicBlogPostSummary[];
  /** `contentVersion().version` when this was read: a cache keyed by it is current while it is unchanged. */
  version: number;
}

/** The public content with its ETag, read again only when the content version moved. */
export interface PublicContentRead {
  content: PublicSections;
  etag: string;
  version: number;
}

type SectionsData = { [K in ContentSectionKey]: SectionData[K] };

/** A section as read: the stored document over the defaults (a field added later reads its default). */
function sectionData(section: ContentSectionKey, stored: Record<string, unknown> | undefined): Record<string, unknown> {
  return { ...(DEFAULT_CONTENT[section] as unknown as Record<string, unknown>), ...stored };
}

function editorOf(id: string | null, name: string | null): { id: string; name: string } | null {
  return id === null ? null : { id, name: name ?? '' };
}

function toSectionView(section: ContentSectionKey, row: SectionRow | undefined): ContentSectionView {
  return {
    section,
    data: sectionData(section, row?.data),
    version: row?.version ?? 0,
    updatedAt: row?.updatedAt.toISOString() ?? null,
    updatedBy: row ? editorOf(row.updatedBy, row.updatedByName) : null,
  };
}

function toRevisionView(row: RevisionRow): ContentRevisionView {
  return {
    id: row.id,
    section: row.section,
    version: row.version,
    kind: row.kind,
    restoredFrom: row.restoredFrom,
    createdAt: row.createdAt.toISOString(),
    createdBy: editorOf(row.createdBy, row.createdByName),
  };
}

export function toHeroStat(row: HeroStatRow): HeroStat {
  return {
    id: row.id,
    number: row.number,
    label: row.label,
    order: row.orderPosition,
    isActive: row.isActive,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** A zod failure as the API reports it: a message per field, keyed by its path in the request body. */
export function validationError(error: z.ZodError, prefix: string): AppError {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = [prefix, ...issue.path.map(String)].filter((part) => part !== '').join('.');
    fields[key] ??= issue.message;
  }
  return new AppError('VALIDATION_ERROR', error.issues[0]?.message ?? 'Invalid content', { fields });
}

/**
 * The text fields sanitising changes (spec part 1 §5), and those it changes heavily, by path in the
 * input. Walks what the editor sent, keeping to keys the schema kept.
 */
export function sanitizingReport(input: unknown, output: unknown, prefix: string): { sanitized: string[]; heavilySanitized: string[] } {
  const sanitized: string[] = [];
  const heavilySanitized: string[] = [];
  const walk = (value: unknown, kept: unknown, path: string) => {
    if (typeof value === 'string') {
      const trimmed = value.trim();
      const clean = sanitizeText(trimmed).trim();
      if (clean !== trimmed) {
        sanitized.push(path);
        if (isHeavilySanitized(trimmed, clean)) heavilySanitized.push(path);
      }
    } else if (Array.isArray(value)) {
      // Blank lines are dropped from line lists, so indices line up only when nothing was dropped.
      const aligned = Array.isArray(kept) && kept.length === value.length ? kept : undefined;
      value.forEach((item, i) => walk(item, aligned?.[i], `${path}.${i}`));
    } else if (value !== null && typeof value === 'object') {
      const keptObject = kept !== null && typeof kept === 'object' ? (kept as Record<string, unknown>) : undefined;
      for (const [key, item] of Object.entries(value)) {
        if (keptObject && !(key in keptObject)) continue;
        walk(item, keptObject?.[key], `${path}.${key}`);
      }
    }
  };
  walk(input, output, prefix);
  return { sanitized, heavilySanitized };
}

function integrationsOf(features: FeaturesContent, live: ReadonlySet<IntegrationId>): PublicContent['integrations'] {
  return INTEGRATION_IDS.map((id) => {
    const product: IntegrationStatus = live.has(id) ? 'Live' : 'Coming Soon';
    return { id, name: INTEGRATION_NAMES[id], status: features.integrationOverrides[id] ?? product };
  });
}

export class ContentService {
  readonly #live: ReadonlySet<IntegrationId>;
  #publicCache: PublicContentRead | undefined;

  constructor(private readonly deps: ContentServiceDeps) {
    this.#live = new Set(deps.liveIntegrations);
  }

  // Sections

  /** Every section, stored or default. */
  async findSections(): Promise<ContentSectionView[]> {
    const rows = new Map((await this.deps.repository.findSections()).map((row) => [row.section, row]));
    return CONTENT_SECTIONS.map((section) => toSectionView(section, rows.get(section)));
  }

  async getSection(section: ContentSectionKey): Promise<ContentSectionView> {
    return toSectionView(section, await this.deps.repository.findSection(section));
  }

  /** Save Changes: validated and sanitised, stored as the next version (409 on a stale `version`). */
  async saveSection(userId: string, section: ContentSectionKey, input: { version: number; data: unknown }): Promise<SavedSection> {
    const parsed = (SECTION_SCHEMAS[section] as z.ZodType<SectionData[typeof section]>).safeParse(input.data);
    if (!parsed.success) throw validationError(parsed.error, 'data');
    const data = parsed.data as unknown as Record<string, unknown>;
    const stored = await this.#store(userId, section, input.version, data, { kind: 'save', restoredFrom: null });
    return { section: stored, ...sanitizingReport(input.data, data, 'data') };
  }

  /** Reset to Defaults: the defaults as the next version; for the hero, the default stats too. */
  async resetSection(userId: string, section: ContentSectionKey, input: { version: number }): Promise<SavedSection> {
    const defaults = DEFAULT_CONTENT[section] as unknown as Record<string, unknown>;
    const stored = await this.#store(userId, section, input.version, defaults, { kind: 'reset', restoredFrom: null });
    return { section: stored, sanitized: [], heavilySanitized: [] };
  }

  async findRevisions(section: ContentSectionKey): Promise<ContentRevisionView[]> {
    return (await this.deps.repository.findRevisions(section, REVISIONS_LISTED)).map(toRevisionView);
  }

  async getRevision(section: ContentSectionKey, revisionId: string): Promise<ContentRevisionDetail> {
    const row = await this.deps.repository.findRevision(section, revisionId);
    if (!row) throw notFound('Revision');
    return { ...toRevisionView(row), data: row.data };
  }

  /**
   * An earlier revision's document as the next version (kind 'restore'). It passes today's rules
   * again first. The hero stats are their own list and are not part of a hero revision.
   */
  async restoreRevision(userId: string, section: ContentSectionKey, revisionId: string, input: { version: number }): Promise<SavedSection> {
    const revision = await this.deps.repository.findRevision(section, revisionId);
    if (!revision) throw notFound('Revision');
    const parsed = (SECTION_SCHEMAS[section] as z.ZodType<SectionData[typeof section]>).safeParse(revision.data);
    if (!parsed.success) throw validationError(parsed.error, 'data');
    const data = parsed.data as unknown as Record<string, unknown>;
    const stored = await this.#store(userId, section, input.version, data, { kind: 'restore', restoredFrom: revision.version });
    return { section: stored, sanitized: [], heavilySanitized: [] };
  }

  async #store(
    userId: string,
    section: ContentSectionKey,
    expected: number,
    data: Record<string, unknown>,
    revision: { kind: 'save' | 'reset' | 'restore'; restoredFrom: number | null },
  ): Promise<ContentSectionView> {
    const { repository } = this.deps;
    const stored = await this.deps.db.transaction().execute(async (trx) => {
      const version = expected === 0 ? await repository.insertFirstVersion(section, data, userId, trx) : await repository.updateIfVersion(section, expected, data, userId, trx);
      if (version === undefined) return undefined;
      await repository.insertRevision({ section, version, kind: revision.kind, restoredFrom: revision.restoredFrom, data, createdBy: userId }, trx);
      if (section === 'hero' && revision.kind === 'reset') await this.#replaceHeroStats(DEFAULT_HERO_STATS.map((s) => ({ ...s, isActive: true })), trx);
      await repository.bumpContentVersion(trx);
      // What this save stored, even if another save follows before the answer.
      return repository.findSection(section, trx);
    });
    if (!stored) {
      const current = await repository.findSection(section);
      throw new AppError('CONFLICT', conflictMessage(section), { details: { version: current?.version ?? 0 } });
    }
    this.deps.onChange?.();
    return toSectionView(section, stored);
  }

  // Hero stats

  /** Every stat, hidden ones too, in display order. */
  async findHeroStats(): Promise<HeroStat[]> {
    return (await this.deps.repository.findHeroStats({ activeOnly: false })).map(toHeroStat);
  }

  /** Save (spec part 1 §7 upsert): the list in display order; stats not in it are removed. */
  async saveHeroStats(input: SaveHeroStatsCommand): Promise<HeroStat[]> {
    const fields: Record<string, string> = {};
    const seen = new Set<string>();
    input.stats.forEach((stat, i) => {
      if (stat.id === undefined) return;
      if (seen.has(stat.id)) fields[`stats.${i}.id`] = 'This stat is in the list twice';
      seen.add(stat.id);
    });
    if (Object.keys(fields).length > 0) throw new AppError('VALIDATION_ERROR', 'A stat is in the list twice', { fields });
    await this.deps.db.transaction().execute(async (trx) => {
      await this.#replaceHeroStats(input.stats, trx);
      await this.deps.repository.bumpContentVersion(trx);
    });
    this.deps.onChange?.();
    return this.findHeroStats();
  }

  /** Show or hide one stat ('Stat Shown' / 'Stat Hidden'). */
  async setHeroStatActive(id: string, isActive: boolean): Promise<HeroStat[]> {
    await this.deps.db.transaction().execute(async (trx) => {
      if (!(await this.deps.repository.setHeroStatActive(id, isActive, trx))) throw notFound('Hero stat');
      await this.deps.repository.bumpContentVersion(trx);
    });
    this.deps.onChange?.();
    return this.findHeroStats();
  }

  /**
   * reorder_hero_stats(stat_id, new_position): moves the stat to a 0-based place in the whole list
   * (past the end: last) and renumbers the others 0..n-1, under the list's lock.
   */
  async reorderHeroStat(id: string, input: ReorderHeroStatCommand): Promise<HeroStat[]> {
    await this.deps.db.transaction().execute(async (trx) => {
      const { repository } = this.deps;
      await repository.lockHeroStats(trx);
      const ids = (await repository.findHeroStats({ activeOnly: false }, trx)).map((row) => row.id);
      const from = ids.indexOf(id);
      if (from < 0) throw notFound('Hero stat');
      ids.splice(from, 1);
      ids.splice(Math.min(input.newPosition, ids.length), 0, id);
      await repository.setHeroStatPositions(
        ids.map((statId, orderPosition) => ({ id: statId, orderPosition })),
        trx,
      );
      await repository.bumpContentVersion(trx);
    });
    this.deps.onChange?.();
    return this.findHeroStats();
  }

  async #replaceHeroStats(stats: readonly { id?: string | undefined; number: string; label: string; isActive: boolean }[], trx: Db): Promise<void> {
    const { repository } = this.deps;
    await repository.lockHeroStats(trx);
    const rows = stats.map((stat, orderPosition) => ({ id: stat.id ?? randomUUID(), number: stat.number, label: stat.label, isActive: stat.isActive, orderPosition }));
    await repository.deleteHeroStatsExcept(
      rows.map((row) => row.id),
      trx,
    );
    await repository.upsertHeroStats(rows, trx);
  }

  // Public

  /**
   * A number every content write moves (sections, stats, posts), and when the last write was: a
   * cache of rendered public pages is current while the number is unchanged. One primary-key read.
   */
  async contentVersion(): Promise<{ version: number; updatedAt: Date }> {
    return this.deps.repository.getContentVersion();
  }

  /**
   * The public pages' content: sections over their defaults, the active stats in order and the
   * integrations with their status. Read from the database only when the content version moved
   * since the last read (a version read before the content it keys can only make the cache
   * refresh once more, never keep old content).
   */
  async getPublicContent(): Promise<PublicContentRead> {
    const { version } = await this.deps.repository.getContentVersion();
    if (this.#publicCache?.version === version) return this.#publicCache;
    const [rows, stats, updatedAt] = await Promise.all([
      this.deps.repository.findSections(),
      this.deps.repository.findHeroStats({ activeOnly: true }),
      this.deps.repository.publicContentUpdatedAt(),
    ]);
    const stored = new Map(rows.map((row) => [row.section, row.data]));
    const data = Object.fromEntries(CONTENT_SECTIONS.map((section) => [section, sectionData(section, stored.get(section))])) as SectionsData;
    const content: PublicSections = {
      hero: data.hero,
      heroStats: stats.map((stat) => ({ number: stat.number, label: stat.label })),
      services: data.services,
      blog: data.blog,
      about: data.about,
      contact: data.contact,
      integrations: integrationsOf(data.features, this.#live),
      updatedAt: updatedAt?.toISOString() ?? null,
    };
    const read = { content, etag: etagOf(content), version };
    this.#publicCache = read;
    return read;
  }

  /** Everything the public pages show — the content and the published posts — in one call. */
  async publicSite(): Promise<PublicSite> {
    const { content, version } = await this.getPublicContent();
    const posts = await this.deps.posts.findPublishedPosts();
    return { ...content, posts, version };
  }

  /** A published post with its HTML, or null (drafts and unknown slugs alike). */
  async findPublishedPost(slug: string): Promise<PublicBlogPost | null> {
    return this.deps.posts.findPublishedPost(slug);
  }
}
