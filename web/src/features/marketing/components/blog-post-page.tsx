import { ArrowLeft } from 'lucide-react';
import { Link } from 'react-router';
import type { PublicBlogPost } from '@common/api/content';

/**
 * One published post at /blog/<slug>. `bodyHtml` is the server's rendering of the Markdown body,
 * already through the sanitizer (server/modules/content): it is inserted as stored.
 */
export function BlogPostPage({ post }: { post: PublicBlogPost }) {
  return (
    <article className="mx-auto max-w-3xl px-4 py-12">
      <Link to="/blog" className="inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
        <ArrowLeft aria-hidden className="size-4" />
        All posts
      </Link>
      <p className="mt-6 flex flex-wrap gap-x-2 text-sm text-muted-foreground">
        <span className="font-medium text-primary">{post.category}</span>
        <span aria-hidden>·</span>
        <time dateTime={post.publishedAt ?? undefined}>{post.date}</time>
        <span aria-hidden>·</span>
        <span>{post.readTime}</span>
      </p>
      <h1 className="mt-3 text-3xl font-bold tracking-tight break-words md:text-5xl">{post.title}</h1>
      <p className="mt-4 text-lg break-words text-muted-foreground">{post.excerpt}</p>
      <p className="mt-4 text-sm text-muted-foreground">By {post.author}</p>
      <img
        src={post.image}
        alt=""
        width={1200}
        height={675}
        decoding="async"
        referrerPolicy="no-referrer"
        className="mt-8 aspect-video h-auto w-full rounded-xl bg-muted object-cover"
      />
      <div className="prose-post mt-10 break-words" dangerouslySetInnerHTML={{ __html: post.bodyHtml }} />
    </article>
  );
}

/** A slug with no published post. */
export function BlogPostNotFound() {
  return (
    <section className="mx-auto flex max-w-lg flex-col items-center gap-4 px-4 py-24 text-center">
      <h1 className="text-3xl font-bold">Post not found</h1>
      <p className="text-muted-foreground">This post does not exist or is not published.</p>
      <Link to="/blog" className="text-sm font-medium text-primary hover:underline">
        Back to the blog
      </Link>
    </section>
  );
}
