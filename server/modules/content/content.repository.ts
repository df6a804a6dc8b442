/**
 * The content module's tables (migration 0023): content_sections, content_revisions, hero_stats,
 * blog_posts and the content_state counter. Views join `users` for the editor's name (read only).
 * Every write method takes the caller's transaction: the service bumps `content_state` in it.
 */
import { sql } from 'kysely';
import type { BlogPostStatus, ContentSectionKey } from '../../../common/api/content';
import type { Db } from '../../db/database';
import type { ContentRevisionKind } from '../../db/schema';
import { json } from '../../db/sql';

function sectionsQuery(db: Db) {
  return db
    .selectFrom('contentSections as s')
    .leftJoin('users as u', 'u.id', 's.updatedBy')
    .select(['s.section', 's.data', 's.version', 's.updatedAt', 's.updatedBy', 'u.fullName as updatedByName']);
}
export type SectionRow = Awaited<ReturnType<ReturnType<typeof sectionsQuery>['executeTakeFirstOrThrow']>>;

function revisionsQuery(db: Db) {
  return db
    .selectFrom('contentRevisions as r')
    .leftJoin('users as u', 'u.id', 'r.createdBy')
    .select(['r.id', 'r.section', 'r.version', 'r.kind', 'r.restoredFrom', 'r.createdAt', 'r.createdBy', 'u.fullName as createdByName']);
}
export type RevisionRow = Awaited<ReturnType<ReturnType<typeof revisionsQuery>['executeTakeFirstOrThrow']>>;

function heroStatsQuery(db: Db) {
  return db.selectFrom('heroStats').select(['id', 'number', 'label', 'orderPosition', 'isActive', 'createdAt', 'updatedAt']).orderBy('orderPosition').orderBy('id');
}
export type HeroStatRow = Awaited<ReturnType<ReturnType<typeof heroStatsQuery>['executeTakeFirstOrThrow']>>;

const POST_SUMMARY = ['id', 'slug', 'title', 'excerpt', 'author', 'date', 'readTime', 'category', 'image', 'status', 'publishedAt', 'createdAt', 'updatedAt', 'version'] as const;
function postsQuery(db: Db) {
  return db.selectFrom('blogPosts').select(POST_SUMMARY);
}
export type PostSummaryRow = Awaited<ReturnType<ReturnType<typeof postsQuery>['executeTakeFirstOrThrow']>>;
export type PostRow = PostSummaryRow & { body: string; bodyHtml: string | null };

export interface NewRevision {
  section: ContentSectionKey;
  version: number;
  kind: ContentRevisionKind;
  restoredFrom: number | null;
  data: Record<string, unknown>;
  createdBy: string;
}

/** A hero stat as stored by a save: its place in the list is its position. */
export interface HeroStatWrite {
  id: string;
  number: string;
  label: string;
  isActive: boolean;
  orderPosition: number;
}

export interface PostWrite {
  slug: string;
  title: string;
  excerpt: string;
  author: string;
  date: string;
  readTime: string;
  category: PostSummaryRow['category'];
  image: string;
  body: string;
  bodyHtml: string;
  status: BlogPostStatus;
}

/** published_at: kept once set, set by the first save that publishes. */
const firstPublished = (status: BlogPostStatus) => sql<Date | null>`coalesce(published_at, case when ${status} = 'published' then now() end)`;

export class ContentRepository {
  constructor(private readonly db: Db) {}

  // Sections and revisions

  async findSections(db: Db = this.db): Promise<SectionRow[]> {
    return sectionsQuery(db).execute();
  }

  async findSection(section: ContentSectionKey, db: Db = this.db): Promise<SectionRow | undefined> {
    return sectionsQuery(db).where('s.section', '=', section).executeTakeFirst();
  }

  /** The first stored version (1); undefined when the section is already stored (someone saved first). */
  async insertFirstVersion(section: ContentSectionKey, data: Record<string, unknown>, userId: string, trx: Db): Promise<number | undefined> {
    const row = await trx
      .insertInto('contentSections')
      .values({ section, data: json(data), version: 1, updatedBy: userId })
      .onConflict((oc) => oc.column('section').doNothing())
      .returning('version')
      .executeTakeFirst();
    return row?.version;
  }

  /**
   * The next version, stored only while the stored one is `expected`; undefined otherwise. One
   * statement: of two saves of the same version, the second waits for the first's row lock, then
   * finds the version changed and updates nothing.
   */
  async updateIfVersion(section: ContentSectionKey, expected: number, data: Record<string, unknown>, userId: string, trx: Db): Promise<number | undefined> {
    const row = await trx
      .updateTable('contentSections')
      .set((eb) => ({ data: json(data), version: eb('version', '+', 1), updatedAt: sql<Date>`now()`, updatedBy: userId }))
      .where('section', '=', section)
      .where('version', '=', expected)
      .returning('version')
      .executeTakeFirst();
    return row?.version;
  }

  async insertRevision(revision: NewRevision, trx: Db): Promise<void> {
    await trx
      .insertInto('contentRevisions')
      .values({ ...revision, data: json(revision.data) })
      .execute();
  }

  /** A section's revisions, newest first (without their data). */
  async findRevisions(section: ContentSectionKey, limit: number): Promise<RevisionRow[]> {
    return revisionsQuery(this.db).where('r.section', '=', section).orderBy('r.version', 'desc').limit(limit).execute();
  }

  async findRevision(section: ContentSectionKey, id: string): Promise<(RevisionRow & { data: Record<string, unknown> }) | undefined> {
    return revisionsQuery(this.db).select('r.data').where('r.section', '=', section).where('r.id', '=', id).executeTakeFirst();
  }

  // Hero stats

  /**
   * Serialises every change to the hero stats' list (save, reorder, reset) until `trx` ends: a
   * transaction-scoped advisory lock keyed on the schema, so positions are renumbered by one
   * transaction at a time on every instance.
   */
  async lockHeroStats(trx: Db): Promise<void> {
    await sql`select pg_advisory_xact_lock(hashtext(current_schema() || '.parley_hero_stats'))`.execute(trx);
  }

  async findHeroStats(options: { activeOnly: boolean }, db: Db = this.db): Promise<HeroStatRow[]> {
    const q = heroStatsQuery(db);
    return (options.activeOnly ? q.where('isActive', '=', true) : q).execute();
  }

  /** Removes the stats not in `keep`. */
  async deleteHeroStatsExcept(keep: readonly string[], trx: Db): Promise<void> {
    let q = trx.deleteFrom('heroStats');
    if (keep.length > 0) q = q.where('id', 'not in', keep);
    await q.execute();
  }

  /** Inserts or updates every stat of the list in one statement (positions unique at commit). */
  async upsertHeroStats(stats: readonly HeroStatWrite[], trx: Db): Promise<void> {
    const rows = stats.map((s) => ({ id: s.id, number: s.number, label: s.label, is_active: s.isActive, order_position: s.orderPosition }));
    await sql`insert into hero_stats (id, number, label, is_active, order_position)
      select r.id, r.number, r.label, r.is_active, r.order_position
      from jsonb_to_recordset(${json(rows)}) as r(id uuid, number text, label text, is_active boolean, order_position integer)
      on conflict (id) do update set number = excluded.number, label = excluded.label, is_active = excluded.is_active,
        order_position = excluded.order_position, updated_at = now()`.execute(trx);
  }

  /** Moves the stats whose position changed, in one statement. */
  async setHeroStatPositions(positions: readonly { id: string; orderPosition: number }[], trx: Db): Promise<void> {
    if (positions.length === 0) return;
    const rows = positions.map((p) => ({ id: p.id, order_position: p.orderPosition }));
    await sql`update hero_stats h set order_position = r.order_position, updated_at = now()
      from jsonb_to_recordset(${json(rows)}) as r(id uuid, order_position integer)
      where h.id = r.id and h.order_position <> r.order_position`.execute(trx);
  }

  /** Shows or hides one stat; false when there is no such stat. */
  async setHeroStatActive(id: string, isActive: boolean, trx: Db): Promise<boolean> {
    const result = await trx.updateTable('heroStats').set({ isActive, updatedAt: sql<Date>`now()` }).where('id', '=', id).executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** The newest change of the public sections and stats (Last-Modified), null when there is none. */
  async publicContentUpdatedAt(db: Db = this.db): Promise<Date | null> {
    const { rows } = await sql<{ stamp: Date | string | null }>`select greatest(
        (select max(updated_at) from content_sections),
        (select max(updated_at) from hero_stats)) as stamp`.execute(db);
    const stamp = rows[0]?.stamp ?? null;
    return stamp === null ? null : new Date(stamp);
  }

  // The content counter

  /** Every content write calls this in its transaction, last (after its own rows). */
  async bumpContentVersion(trx: Db): Promise<void> {
    await trx
      .updateTable('contentState')
      .set((eb) => ({ version: eb('version', '+', 1), updatedAt: sql<Date>`now()` }))
      .where('id', '=', 1)
      .execute();
  }

  async getContentVersion(db: Db = this.db): Promise<{ version: number; updatedAt: Date }> {
    return db.selectFrom('contentState').select(['version', 'updatedAt']).where('id', '=', 1).executeTakeFirstOrThrow();
  }

  // Blog posts

  /** Every post, newest first. */
  async findPosts(): Promise<PostSummaryRow[]> {
    return postsQuery(this.db).orderBy('createdAt', 'desc').orderBy('id', 'desc').execute();
  }

  async findPost(id: number, db: Db = this.db): Promise<PostRow | undefined> {
    return postsQuery(db).select(['body', 'bodyHtml']).where('id', '=', id).executeTakeFirst();
  }

  /** Published posts, most recently published first (without bodies). */
  async findPublishedPosts(): Promise<PostSummaryRow[]> {
    return postsQuery(this.db).where('status', '=', 'published').orderBy('publishedAt', 'desc').orderBy('id', 'desc').execute();
  }

  async findPublishedPostBySlug(slug: string): Promise<(PostSummaryRow & { bodyHtml: string | null }) | undefined> {
    return postsQuery(this.db).select('bodyHtml').where('slug', '=', slug).where('status', '=', 'published').executeTakeFirst();
  }

  /** The slugs `base` and `base-…` in use, except by post `exceptId`. */
  async findSlugsLike(base: string, exceptId: number | null, db: Db = this.db): Promise<string[]> {
    // A slug holds only [a-z0-9-], so `base` has no LIKE wildcard.
    let q = db.selectFrom('blogPosts').select('slug').where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base}-%`)]));
    if (exceptId !== null) q = q.where('id', '<>', exceptId);
    return (await q.execute()).map((r) => r.slug);
  }

  /** Inserts a post; undefined when its slug is taken. */
  async insertPost(post: PostWrite, userId: string, trx: Db): Promise<number | undefined> {
    const row = await trx
      .insertInto('blogPosts')
      .values({ ...post, publishedAt: post.status === 'published' ? sql<Date>`now()` : null, createdBy: userId, updatedBy: userId })
      .onConflict((oc) => oc.column('slug').doNothing())
      .returning('id')
      .executeTakeFirst();
    return row?.id;
  }

  /** Updates a post while its version is `expected`; false otherwise. A taken slug throws (unique violation). */
  async updatePostIfVersion(id: number, expected: number, post: PostWrite, userId: string, trx: Db): Promise<boolean> {
    const result = await trx
      .updateTable('blogPosts')
      .set((eb) => ({ ...post, publishedAt: firstPublished(post.status), version: eb('version', '+', 1), updatedAt: sql<Date>`now()`, updatedBy: userId }))
      .where('id', '=', id)
      .where('version', '=', expected)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async deletePost(id: number, trx: Db): Promise<boolean> {
    const result = await trx.deleteFrom('blogPosts').where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }
}
