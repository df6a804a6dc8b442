/**
 * Blog posts over HTTP on both engines (issue 15 §1, §2; spec part 2 §3, §4, §5, §8): the six
 * sample posts seeded as drafts, create/read/update/delete with every validation text, slugs
 * (made from the title, -2, -3… on collision; a chosen slug that collides is a 409), optimistic
 * concurrency, publishing (published_at set once), the Markdown body stored as sanitised HTML, and
 * the public reads showing published posts only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BLOG_BODY_MAX,
  type BlogPostDetail,
  type BlogPostInput,
  type BlogPostSummary,
  POST_CONFLICT_MESSAGE,
  type PublicBlogPost,
  SLUG_TAKEN_MESSAGE,
  slugFromTitle,
} from '../../../common/api/content';
import { SAMPLE_POSTS } from '../../../common/marketing/defaults';
import { HTTPS_URL_MESSAGE, SCRIPT_LIKE_MESSAGE, SHORT_LINK_MESSAGE } from '../../../common/validation/sanitize';
import { createTestApp, signedInClient, type TestApp, type TestClient } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import { expectJson } from '../../../test/helpers/inbox';
import { firstFreeSlug } from './blog-posts.service';

interface ErrorBody {
  error: { code: string; message: string; fields?: Record<string, string> };
}

const POST: BlogPostInput = {
  title: 'Launching the new inbox',
  excerpt: 'Every channel in one list, with AI summaries.',
  author: 'Ada Admin',
  date: 'May 1, 2026',
  readTime: '3 min read',
  category: 'Business',
  image: 'https://images.example/inbox.png',
  body: '## What changed\n\nThe inbox is **faster**. Read [the docs](https://docs.example/inbox).',
};

describe('slugs', () => {
  it('are made from the title: ASCII-folded, lowercased, hyphenated, at most 90 characters cut at a hyphen', () => {
    expect(slugFromTitle('Launching the new inbox')).toBe('launching-the-new-inbox');
    expect(slugFromTitle('  Ça déménage: Über-Straße & Co!  ')).toBe('ca-demenage-uber-strasse-and-co');
    expect(slugFromTitle('Æsir, Øresund, Łódź — 2026')).toBe('aesir-oresund-lodz-2026');
    expect(slugFromTitle('你好世界')).toBe('post');
    expect(slugFromTitle('---')).toBe('post');
    const long = slugFromTitle(`${'word '.repeat(40)}end`);
    expect(long.length).toBeLessThanOrEqual(90);
    expect(long.length).toBeGreaterThan(80);
    expect(long).toMatch(/^(word-)*word$/u);
  });

  it('take the first free -N suffix', () => {
    expect(firstFreeSlug('a', new Set())).toBe('a');
    expect(firstFreeSlug('a', new Set(['a', 'a-2', 'a-4']))).toBe('a-3');
  });
});

describe.each(ENGINES)('blog posts (%s)', (engine) => {
  let app: TestApp;
  let admin: TestClient;

  const list = async () => expectJson<{ posts: BlogPostSummary[] }>(await admin.get('/api/v1/blog-posts'), 200).posts;
  const create = async (input: Partial<BlogPostInput> = {}) => expectJson<BlogPostDetail>(await admin.post('/api/v1/blog-posts', { ...POST, ...input }), 201);
  const update = (post: BlogPostDetail, changes: Record<string, unknown>) =>
    admin.put(`/api/v1/blog-posts/${post.id}`, {
      title: post.title,
      excerpt: post.excerpt,
      author: post.author,
      date: post.date,
      readTime: post.readTime,
      category: post.category,
      image: post.image,
      body: post.body,
      slug: post.slug,
      status: post.status,
      version: post.version,
      ...changes,
    });
  const publicPosts = async () => expectJson<{ posts: Omit<PublicBlogPost, 'bodyHtml'>[] }>(await app.client().get('/api/v1/public/blog-posts'), 200).posts;
  const count = async () => (await app.database.db.selectFrom('blogPosts').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n;

  beforeAll(async () => {
    app = await createTestApp(engine, { startJobs: false });
    admin = (await signedInClient(app, 'admin')).client;
  });
  afterAll(async () => {
    await app.destroy();
  });

  it('a new installation has the six sample posts as drafts, newest first, and publishes none', async () => {
    const posts = await list();
    expect(posts.map((p) => p.title)).toEqual(SAMPLE_POSTS.map((p) => p.title));
    expect(posts.every((p) => p.status === 'draft' && p.publishedAt === null && p.version === 1)).toBe(true);
    expect(posts.map((p) => p.slug)).toEqual(SAMPLE_POSTS.map((p) => slugFromTitle(p.title)));
    expect(await publicPosts()).toEqual([]);
    // A sample's HTML is rendered when read (stored by its first save).
    const sample = expectJson<BlogPostDetail>(await admin.get(`/api/v1/blog-posts/${posts[0]!.id}`), 200);
    expect(sample.body).toBe(SAMPLE_POSTS[0]!.body);
    expect(sample.bodyHtml).toContain('<h2>1. Refund requests</h2>');
  });

  it('creates a draft with a numeric id, a slug from its title and its body rendered, and lists it first', async () => {
    const before = Math.max(...(await list()).map((p) => p.id));
    const post = await create();
    expect(post).toMatchObject({ slug: 'launching-the-new-inbox', status: 'draft', publishedAt: null, version: 1, title: POST.title, category: 'Business' });
    expect(post.id).toBeGreaterThan(before);
    expect(post.bodyHtml).toBe(
      '<h2>What changed</h2>\n<p>The inbox is <strong>faster</strong>. Read <a href="https://docs.example/inbox" rel="nofollow noopener noreferrer" target="_blank">the docs</a>.</p>\n',
    );
    const stored = await app.database.db.selectFrom('blogPosts').select(['bodyHtml', 'body']).where('id', '=', post.id).executeTakeFirstOrThrow();
    expect(stored).toEqual({ body: POST.body, bodyHtml: post.bodyHtml });
    expect((await list())[0]!.id).toBe(post.id);
    expect(expectJson<BlogPostDetail>(await admin.get(`/api/v1/blog-posts/${post.id}`), 200)).toEqual(post);
  });

  it('adds -2, -3… to a slug made from a title already used, and refuses a chosen slug in use with 409 on `slug`', async () => {
    const title = 'Same title twice';
    expect((await create({ title })).slug).toBe('same-title-twice');
    expect((await create({ title })).slug).toBe('same-title-twice-2');
    expect((await create({ title, slug: '' })).slug).toBe('same-title-twice-3');
    const before = await count();
    const taken = await admin.post('/api/v1/blog-posts', { ...POST, title: 'Other', slug: 'same-title-twice' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json<ErrorBody>().error).toMatchObject({ code: 'CONFLICT', fields: { slug: SLUG_TAKEN_MESSAGE } });
    expect(await count()).toBe(before);
    expect((await create({ title: 'Other', slug: '  Custom-Slug-1 ' })).slug).toBe('custom-slug-1');
  });

  describe('validation', () => {
    const cases: [string, Record<string, unknown>, string, string][] = [
      ['no title', { title: '' }, 'title', 'Title is required'],
      ['a blank title', { title: '   ' }, 'title', 'Title is required'],
      ['a title of removed text only', { title: '<>' }, 'title', 'Title is required'],
      ['a long title', { title: 'x'.repeat(201) }, 'title', 'Must be at most 200 characters'],
      ['a script title', { title: '<script>alert(1)</script>' }, 'title', SCRIPT_LIKE_MESSAGE],
      ['no excerpt', { excerpt: '' }, 'excerpt', 'Excerpt is required'],
      ['no author', { author: undefined }, 'author', 'Author is required'],
      ['no date', { date: '' }, 'date', 'Date is required'],
      ['no read time', { readTime: '' }, 'readTime', 'Read time is required'],
      ['no category', { category: undefined }, 'category', 'Choose one of the six categories'],
      ['another category', { category: 'News' }, 'category', 'Choose one of the six categories'],
      ['no image', { image: '' }, 'image', 'Image URL is required'],
      ['an http image', { image: 'http://images.example/a.png' }, 'image', HTTPS_URL_MESSAGE],
      ['a relative image', { image: '/a.png' }, 'image', HTTPS_URL_MESSAGE],
      ['a javascript: image', { image: 'javascript:alert(1)' }, 'image', HTTPS_URL_MESSAGE],
      ['a short-link image', { image: 'https://bit.ly/abc' }, 'image', SHORT_LINK_MESSAGE],
      ['a script body', { body: 'Hello\n\n<script>alert(1)</script>' }, 'body', SCRIPT_LIKE_MESSAGE],
      ['an iframe body', { body: '<iframe src="https://x.example"></iframe>' }, 'body', SCRIPT_LIKE_MESSAGE],
      ['a long body', { body: 'x'.repeat(BLOG_BODY_MAX + 1) }, 'body', `The body is too long (at most ${BLOG_BODY_MAX} characters)`],
      ['a bad slug', { slug: 'no spaces allowed' }, 'slug', 'Use lowercase letters, digits and single hyphens'],
      ['a double hyphen', { slug: 'a--b' }, 'slug', 'Use lowercase letters, digits and single hyphens'],
      ['a long slug', { slug: 'a'.repeat(101) }, 'slug', 'Slug is too long'],
      ['another status', { status: 'archived' }, 'status', 'Choose draft or published'],
    ];

    it.each(cases)('refuses %s: 400 with the field message, nothing stored', async (_name, change, field, message) => {
      const before = await count();
      const answer = await admin.post('/api/v1/blog-posts', { ...POST, ...change });
      expect(answer.statusCode).toBe(400);
      expect(answer.json<ErrorBody>().error).toMatchObject({ code: 'VALIDATION_ERROR' });
      expect(answer.json<ErrorBody>().error.fields?.[field]).toBe(message);
      expect(await count()).toBe(before);
    });

    it('an update needs the version it was made on, and refuses what a create refuses', async () => {
      const post = await create({ title: 'Versioned' });
      const noVersion = await update(post, { version: undefined });
      expect(noVersion.statusCode).toBe(400);
      expect(noVersion.json<ErrorBody>().error.fields).toEqual({ version: 'version is required' });
      const badImage = await update(post, { image: 'http://x.example/a.png' });
      expect(badImage.json<ErrorBody>().error.fields).toEqual({ image: HTTPS_URL_MESSAGE });
      expect(expectJson<BlogPostDetail>(await admin.get(`/api/v1/blog-posts/${post.id}`), 200)).toEqual(post);
    });
  });

  it('sanitises the text fields it stores', async () => {
    const post = await create({ title: 'Faster <b>replies</b> onclick=x', excerpt: 'See javascript:alert(1) here' });
    expect(post.title).toBe('Faster breplies/b x');
    expect(post.excerpt).toBe('See alert(1) here');
  });

  it('updates a post with the version it was read at, and refuses a stale version with 409, storing nothing', async () => {
    const post = await create({ title: 'To be edited' });
    const updated = expectJson<BlogPostDetail>(await update(post, { title: 'Edited', body: '*new*' }), 200);
    expect(updated).toMatchObject({ id: post.id, title: 'Edited', version: 2, slug: post.slug, bodyHtml: '<p><em>new</em></p>\n' });
    const stale = await update(post, { title: 'Lost update?' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json<ErrorBody>().error).toMatchObject({ code: 'CONFLICT', message: POST_CONFLICT_MESSAGE });
    expect(POST_CONFLICT_MESSAGE).toBe('Someone else changed this post since you opened it. Reload to see their changes.');
    expect(expectJson<BlogPostDetail>(await admin.get(`/api/v1/blog-posts/${post.id}`), 200)).toEqual(updated);
  });

  it('of updates made on the same version at once, exactly one wins', async () => {
    const post = await create({ title: 'Raced' });
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => update(post, { excerpt: `Edit ${i}` })));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    const winner = answers.find((a) => a.statusCode === 200)!.json<BlogPostDetail>();
    const stored = expectJson<BlogPostDetail>(await admin.get(`/api/v1/blog-posts/${post.id}`), 200);
    expect(stored).toMatchObject({ version: 2, excerpt: winner.excerpt });
  });

  it('changes the slug on update: a chosen one must be free, an empty one is made from the title', async () => {
    const a = await create({ title: 'Slug owner' });
    const b = await create({ title: 'Slug taker' });
    const taken = await update(b, { slug: a.slug });
    expect(taken.statusCode).toBe(409);
    expect(taken.json<ErrorBody>().error.fields).toEqual({ slug: SLUG_TAKEN_MESSAGE });
    // Its own slug is free for it.
    const same = expectJson<BlogPostDetail>(await update(b, { slug: '' }), 200);
    expect(same.slug).toBe('slug-taker');
    const renamed = expectJson<BlogPostDetail>(await update(same, { slug: '', title: 'Slug owner' }), 200);
    expect(renamed.slug).toBe('slug-owner-2');
  });

  it('publishing sets published_at once; the public reads show published posts only, most recently published first', async () => {
    const first = await create({ title: 'First published', slug: 'first-published' });
    const second = await create({ title: 'Second published', slug: 'second-published' });
    const draft = await create({ title: 'Still a draft', slug: 'still-a-draft' });

    const published = expectJson<BlogPostDetail>(await update(first, { status: 'published' }), 200);
    expect(published.publishedAt).not.toBeNull();
    const edited = expectJson<BlogPostDetail>(await update(published, { excerpt: 'Edited after publishing' }), 200);
    expect(edited.publishedAt).toBe(published.publishedAt);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expectJson(await update(second, { status: 'published' }), 200);

    expect((await publicPosts()).map((p) => p.slug)).toEqual(['second-published', 'first-published']);
    const summary = (await publicPosts())[1]!;
    expect(Object.keys(summary).sort()).toEqual(['author', 'category', 'date', 'excerpt', 'id', 'image', 'publishedAt', 'readTime', 'slug', 'title', 'updatedAt']);
    const page = expectJson<PublicBlogPost>(await app.client().get('/api/v1/public/blog-posts/first-published'), 200);
    expect(page).toMatchObject({ id: first.id, title: 'First published', excerpt: 'Edited after publishing', bodyHtml: edited.bodyHtml });
    for (const slug of ['still-a-draft', 'no-such-post', 'x'.repeat(100)]) {
      expect((await app.client().get(`/api/v1/public/blog-posts/${slug}`)).statusCode, slug).toBe(404);
    }
    expect((await app.client().get('/api/v1/public/blog-posts/still-a-draft')).json<ErrorBody>().error.code).toBe('NOT_FOUND');
    expect(draft.status).toBe('draft');

    // Back to draft: gone from the public pages, first publication date kept for a later republish.
    const unpublished = expectJson<BlogPostDetail>(await update(edited, { status: 'draft' }), 200);
    expect(unpublished.publishedAt).toBe(published.publishedAt);
    expect((await app.client().get('/api/v1/public/blog-posts/first-published')).statusCode).toBe(404);
    expect((await publicPosts()).map((p) => p.slug)).toEqual(['second-published']);
    const republished = expectJson<BlogPostDetail>(await update(unpublished, { status: 'published' }), 200);
    expect(republished.publishedAt).toBe(published.publishedAt);

    // The server rendering's one call has the published posts with their HTML.
    const site = await app.services.content.publicSite();
    expect(site.posts.map((p) => p.slug).sort()).toEqual(['first-published', 'second-published']);
    expect((await app.services.content.findPublishedPost('first-published'))?.bodyHtml).toBe(republished.bodyHtml);
    expect(await app.services.content.findPublishedPost('still-a-draft')).toBeNull();
  });

  it('the public list and post answer conditional GETs with their ETag', async () => {
    const listed = await app.client().get('/api/v1/public/blog-posts');
    expect(listed.headers['cache-control']).toBe('no-cache');
    const etag = listed.headers.etag as string;
    expect((await app.client().get('/api/v1/public/blog-posts', { 'if-none-match': etag })).statusCode).toBe(304);
    const post = await create({ title: 'Breaking', status: 'published' });
    expect(post.publishedAt).not.toBeNull();
    const changed = await app.client().get('/api/v1/public/blog-posts', { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.json<{ posts: { slug: string }[] }>().posts[0]?.slug).toBe('breaking');
    const page = await app.client().get('/api/v1/public/blog-posts/breaking');
    expect((await app.client().get('/api/v1/public/blog-posts/breaking', { 'if-none-match': page.headers.etag as string })).statusCode).toBe(304);
  });

  it('deletes a post (204, then 404), and the public pages lose it', async () => {
    const post = await create({ title: 'Short-lived', slug: 'short-lived', status: 'published' });
    expect((await app.client().get('/api/v1/public/blog-posts/short-lived')).statusCode).toBe(200);
    const { version } = await app.services.content.contentVersion();
    expect((await admin.delete(`/api/v1/blog-posts/${post.id}`)).statusCode).toBe(204);
    expect((await app.services.content.contentVersion()).version).toBeGreaterThan(version);
    expect((await admin.delete(`/api/v1/blog-posts/${post.id}`)).statusCode).toBe(404);
    expect((await admin.get(`/api/v1/blog-posts/${post.id}`)).statusCode).toBe(404);
    expect((await update(post, {})).statusCode).toBe(404);
    expect((await app.client().get('/api/v1/public/blog-posts/short-lived')).statusCode).toBe(404);
    const notAnId = await admin.get('/api/v1/blog-posts/first');
    expect(notAnId.statusCode).toBe(400);
    expect(notAnId.json<ErrorBody>().error.fields).toEqual({ id: 'Unknown post' });
  });

  it('previews a body as it will be published, refusing script-like ones', async () => {
    const preview = expectJson<{ html: string }>(await admin.post('/api/v1/blog-posts/preview', { body: '# Hi\n\n<img src="https://i.example/a.png" onerror="alert(1)">' }), 200);
    expect(preview.html).toBe('<h1>Hi</h1>\n<img src="https://i.example/a.png" />');
    const refused = await admin.post('/api/v1/blog-posts/preview', { body: '<script>alert(1)</script>' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<ErrorBody>().error.fields).toEqual({ body: SCRIPT_LIKE_MESSAGE });
  });
});
