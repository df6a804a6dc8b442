/**
 * Blog posts (issue 15 §1; spec part 2 §3, §4, §5): the spec's fields plus a Markdown body, a
 * unique slug and draft/published. The body is refused when script-like (the route's schema) and
 * rendered through marked and sanitize-html when saved, so public reads serve stored HTML.
 * Updates carry the version they were made on (409 when someone saved since).
 */
import type { z } from 'zod';
import {
  type BlogPostDetail,
  type blogPostInput,
  type BlogPostSummary,
  POST_CONFLICT_MESSAGE,
  type PublicBlogPost,
  SLUG_TAKEN_MESSAGE,
  slugFromTitle,
  type updateBlogPostInput,
} from '../../../common/api/content';
import type { Db } from '../../db/database';
import { AppError, isUniqueViolation, notFound } from '../../lib/errors';
import type { ContentRepository, PostRow, PostSummaryRow, PostWrite } from './content.repository';
import { renderMarkdown } from './markdown';

export type BlogPostCommand = z.output<typeof blogPostInput>;
export type UpdateBlogPostCommand = z.output<typeof updateBlogPostInput>;
export type PublicBlogPostSummary = Omit<PublicBlogPost, 'bodyHtml'>;

export interface BlogPostsServiceDeps {
  db: Db;
  repository: ContentRepository;
  /** Called after every committed change of a post (a rendered-page cache on this instance drops its pages). */
  onChange?: () => void;
}

/** Attempts at a generated slug when other saves take the free one first. */
const SLUG_ATTEMPTS = 5;

const slugTaken = () => new AppError('CONFLICT', SLUG_TAKEN_MESSAGE, { fields: { slug: SLUG_TAKEN_MESSAGE } });

export function toPostSummary(row: PostSummaryRow): BlogPostSummary {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    excerpt: row.excerpt,
    author: row.author,
    date: row.date,
    readTime: row.readTime,
    category: row.category,
    image: row.image,
    status: row.status,
    publishedAt: row.publishedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    version: row.version,
  };
}

function toPublicSummary(row: PostSummaryRow): PublicBlogPostSummary {
  const { status: _status, version: _version, createdAt: _createdAt, ...rest } = toPostSummary(row);
  return rest;
}

function toPublicPost(row: PostSummaryRow & { bodyHtml: string | null }): PublicBlogPost {
  return { ...toPublicSummary(row), bodyHtml: row.bodyHtml ?? '' };
}

function toDetail(row: PostRow): BlogPostDetail {
  // Only a never-saved draft (a seeded sample) has no stored HTML: rendered here, stored by its first save.
  return { ...toPostSummary(row), body: row.body, bodyHtml: row.bodyHtml ?? renderMarkdown(row.body) };
}

/** The first of `base`, `base-2`, `base-3`… not in `taken`. */
export function firstFreeSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

export class BlogPostsService {
  constructor(private readonly deps: BlogPostsServiceDeps) {}

  /** Every post, drafts too, newest first. */
  async findPosts(): Promise<BlogPostSummary[]> {
    return (await this.deps.repository.findPosts()).map(toPostSummary);
  }

  async getPost(id: number): Promise<BlogPostDetail> {
    const row = await this.deps.repository.findPost(id);
    if (!row) throw notFound('Post');
    return toDetail(row);
  }

  /** The body as the public page will show it. */
  preview(body: string): { html: string } {
    return { html: renderMarkdown(body) };
  }

  async createPost(userId: string, input: BlogPostCommand): Promise<BlogPostDetail> {
    const write = this.#write(input);
    const row = await this.deps.db.transaction().execute(async (trx) => {
      for (let attempt = 0; attempt < SLUG_ATTEMPTS; attempt++) {
        const slug = input.slug !== '' ? input.slug : await this.#freeSlug(slugFromTitle(input.title), null, trx);
        const inserted = await this.deps.repository.insertPost({ ...write, slug }, userId, trx);
        if (inserted !== undefined) {
          await this.deps.repository.bumpContentVersion(trx);
          return this.deps.repository.findPost(inserted, trx);
        }
        if (input.slug !== '') throw slugTaken();
      }
      throw new AppError('CONFLICT', 'Could not find a free slug; enter one', { fields: { slug: 'Could not find a free slug; enter one' } });
    });
    if (!row) throw notFound('Post');
    this.deps.onChange?.();
    return toDetail(row);
  }

  async updatePost(userId: string, id: number, input: UpdateBlogPostCommand): Promise<BlogPostDetail> {
    const write = this.#write(input);
    let row: PostRow | undefined;
    try {
      row = await this.deps.db.transaction().execute(async (trx) => {
        const current = await this.deps.repository.findPost(id, trx);
        if (!current) throw notFound('Post');
        if (current.version !== input.version) throw new AppError('CONFLICT', POST_CONFLICT_MESSAGE, { details: { version: current.version } });
        let slug = input.slug;
        if (slug === '') slug = await this.#freeSlug(slugFromTitle(input.title), id, trx);
        else if ((await this.deps.repository.findSlugsLike(slug, id, trx)).includes(slug)) throw slugTaken();
        if (!(await this.deps.repository.updatePostIfVersion(id, input.version, { ...write, slug }, userId, trx))) {
          throw new AppError('CONFLICT', POST_CONFLICT_MESSAGE);
        }
        await this.deps.repository.bumpContentVersion(trx);
        return this.deps.repository.findPost(id, trx);
      });
    } catch (error) {
      // Another post took the slug between the check and the update.
      if (isUniqueViolation(error)) throw slugTaken();
      throw error;
    }
    if (!row) throw notFound('Post');
    this.deps.onChange?.();
    return toDetail(row);
  }

  async deletePost(id: number): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      if (!(await this.deps.repository.deletePost(id, trx))) throw notFound('Post');
      await this.deps.repository.bumpContentVersion(trx);
    });
    this.deps.onChange?.();
  }

  /** Published posts, most recently published first (without their bodies). */
  async findPublishedPosts(): Promise<PublicBlogPostSummary[]> {
    return (await this.deps.repository.findPublishedPosts()).map(toPublicSummary);
  }

  /** A published post by slug, or null for a draft or an unknown slug alike. */
  async findPublishedPost(slug: string): Promise<PublicBlogPost | null> {
    const row = await this.deps.repository.findPublishedPostBySlug(slug);
    return row ? toPublicPost(row) : null;
  }

  /** A published post by slug; 404 for a draft or an unknown slug alike. */
  async getPublishedPost(slug: string): Promise<PublicBlogPost> {
    const post = await this.findPublishedPost(slug);
    if (!post) throw notFound('Post');
    return post;
  }

  #write(input: BlogPostCommand): Omit<PostWrite, 'slug'> {
    return {
      title: input.title,
      excerpt: input.excerpt,
      author: input.author,
      date: input.date,
      readTime: input.readTime,
      category: input.category,
      image: input.image,
      body: input.body,
      bodyHtml: renderMarkdown(input.body),
      status: input.status,
    };
  }

  async #freeSlug(base: string, exceptId: number | null, trx: Db): Promise<string> {
    return firstFreeSlug(base, new Set(await this.deps.repository.findSlugsLike(base, exceptId, trx)));
  }
}
