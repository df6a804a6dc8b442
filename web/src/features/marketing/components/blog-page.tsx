import { Newspaper } from 'lucide-react';
import { Link } from 'react-router';
import type { BlogPageContent } from '@common/api/content';
import type { PublicPostSummary } from '@common/site';
import { PageHero } from './page-hero';

/** What the newsletter links (`/newsletter/confirm`, `/newsletter/unsubscribe`) bring back to /blog. */
export const NEWSLETTER_NOTICES: Record<string, { text: string; tone: 'success' | 'error' }> = {
  confirmed: { text: 'Your subscription is confirmed. Thank you!', tone: 'success' },
  unsubscribed: { text: 'You are unsubscribed. You will receive no more newsletters.', tone: 'success' },
  invalid: { text: 'This link is invalid or has expired. Subscribe again to get a new one.', tone: 'error' },
};

export function blogPath(category: string | null): string {
  return category === null ? '/blog' : `/blog?category=${encodeURIComponent(category)}`;
}

function PostMeta({ post }: { post: PublicPostSummary }) {
  return (
    <p className="flex flex-wrap gap-x-2 text-xs text-muted-foreground">
      <span className="font-medium text-primary">{post.category}</span>
      <span aria-hidden>·</span>
      <time dateTime={post.publishedAt ?? undefined}>{post.date}</time>
      <span aria-hidden>·</span>
      <span>{post.readTime}</span>
    </p>
  );
}

function PostCard({ post, featured }: { post: PublicPostSummary; featured: boolean }) {
  return (
    <article className={`overflow-hidden rounded-xl border bg-card ${featured ? 'md:grid md:grid-cols-2' : 'flex flex-col'}`}>
      <img
        src={post.image}
        alt=""
        width={1200}
        height={675}
        loading={featured ? 'eager' : 'lazy'}
        decoding="async"
        referrerPolicy="no-referrer"
        className="aspect-video h-auto w-full bg-muted object-cover"
      />
      <div className="flex flex-col gap-3 p-6">
        <PostMeta post={post} />
        <h2 className={`font-semibold break-words ${featured ? 'text-2xl' : 'text-lg'}`}>
          <Link to={`/blog/${post.slug}`} className="hover:underline">
            {post.title}
          </Link>
        </h2>
        <p className="text-sm break-words text-muted-foreground">{post.excerpt}</p>
        <p className="mt-auto text-xs text-muted-foreground">By {post.author}</p>
      </div>
    </article>
  );
}

/**
 * Blog (spec part 2 "Public pages"): category chips (links, so filtering needs no script), the
 * featured first post, a grid of the rest, and the newsletter box (double opt-in, sent by the site
 * script: `data-island="newsletter"`).
 */
export function BlogPage({
  page,
  posts,
  category,
  notice,
}: {
  page: BlogPageContent;
  posts: readonly PublicPostSummary[];
  category: string | null;
  notice: string | null;
}) {
  const shown = category === null ? posts : posts.filter((post) => post.category === category);
  const [featured, ...rest] = shown;
  const message = notice === null ? undefined : NEWSLETTER_NOTICES[notice];
  return (
    <>
      <PageHero title={page.title}>{page.subtitle}</PageHero>
      {message ? (
        <p
          role="status"
          className={`mx-auto mt-6 max-w-3xl rounded-md border px-4 py-3 text-center text-sm ${message.tone === 'success' ? 'border-success/30 bg-success/10' : 'border-destructive/30 bg-destructive/10'}`}
        >
          {message.text}
        </p>
      ) : null}
      <section aria-label="Posts" className="mx-auto max-w-6xl px-4 py-12">
        <nav aria-label="Categories" className="flex flex-wrap gap-2">
          {page.categories.map((name) => {
            const value = name === 'All' ? null : name;
            const active = value === category;
            return (
              <Link
                key={name}
                to={blogPath(value)}
                aria-current={active ? 'page' : undefined}
                className={`rounded-full border px-3 py-1.5 text-sm transition-colors ${active ? 'border-primary bg-primary text-primary-foreground' : 'hover:bg-accent'}`}
              >
                {name}
              </Link>
            );
          })}
        </nav>
        {featured === undefined ? (
          <div className="mx-auto mt-10 flex max-w-lg flex-col items-center gap-3 rounded-xl border border-dashed p-10 text-center">
            <Newspaper aria-hidden className="size-8 text-muted-foreground" />
            <h2 className="text-lg font-semibold">{category === null ? 'No posts published yet.' : `No posts in ${category} yet.`}</h2>
          </div>
        ) : (
          <div className="mt-10 grid gap-6">
            <PostCard post={featured} featured />
            {rest.length > 0 ? (
              <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
                {rest.map((post) => (
                  <PostCard key={post.id} post={post} featured={false} />
                ))}
              </div>
            ) : null}
          </div>
        )}
      </section>
      <section aria-labelledby="newsletter-heading" className="border-t bg-card/30">
        <div className="mx-auto max-w-2xl px-4 py-16 text-center">
          <h2 id="newsletter-heading" className="text-2xl font-bold">
            {page.newsletterTitle}
          </h2>
          <p className="mt-3 text-muted-foreground">{page.newsletterDescription}</p>
          <form data-island="newsletter" noValidate className="mx-auto mt-6 flex max-w-md flex-col gap-3 sm:flex-row">
            <label htmlFor="newsletter-email" className="sr-only">
              Email
            </label>
            <input
              id="newsletter-email"
              name="email"
              type="email"
              required
              autoComplete="email"
              placeholder="you@company.com"
              maxLength={254}
              className="h-10 w-full min-w-0 flex-1 rounded-md border border-input bg-transparent px-3 text-sm shadow-xs outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50"
            />
            <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
              <label htmlFor="newsletter-website">Website</label>
              <input id="newsletter-website" name="website" type="text" tabIndex={-1} autoComplete="off" />
            </div>
            <button
              type="submit"
              className="inline-flex h-10 items-center justify-center rounded-md bg-primary px-5 text-sm font-medium text-primary-foreground shadow-xs transition-colors hover:bg-primary/90 disabled:opacity-60"
            >
              Subscribe
            </button>
          </form>
          <p role="status" aria-live="polite" data-status-for="newsletter" className="mt-3 text-sm" />
        </div>
      </section>
    </>
  );
}
