/**
 * The blog post form (spec part 2 "Content management", §3 blog post, §5 blog rule): built from a
 * post, turned into the body of `POST /api/v1/blog-posts` or `PUT /api/v1/blog-posts/:id`, validated
 * with the contract's `blogPostInput`.
 */
import { toNestErrors } from '@hookform/resolvers';
import type { FieldErrors, Resolver } from 'react-hook-form';
import { blogPostInput, type BlogPostDetail, type BlogPostInput, type BlogPostStatus } from '@common/api/content';
import { looksLikeScript, SCRIPT_LIKE_MESSAGE } from '@common/validation/sanitize';

export interface BlogPostForm {
  title: string;
  excerpt: string;
  author: string;
  date: string;
  readTime: string;
  /** '' until one of the six is chosen. */
  category: string;
  image: string;
  slug: string;
  status: BlogPostStatus;
  body: string;
}

export const BLOG_FORM_FIELDS = ['title', 'excerpt', 'author', 'date', 'readTime', 'category', 'image', 'slug', 'status', 'body'] as const;
export type BlogFormField = (typeof BLOG_FORM_FIELDS)[number];

export const IMAGE_HINT = 'Images are hosted externally: enter the full https:// URL of the image.';
export const SLUG_HINT = 'Optional. Left empty, it is made from the title.';

const spelledDate = new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric' });

/** The spec's free-text date, e.g. 'March 15, 2024'. */
export function dateText(date: Date): string {
  return spelledDate.format(date);
}

/** A new post: dated today, by the signed-in editor, a draft. */
export function newBlogPostForm(author: string, today: Date = new Date()): BlogPostForm {
  return { title: '', excerpt: '', author, date: dateText(today), readTime: '', category: '', image: '', slug: '', status: 'draft', body: '' };
}

export function toBlogPostForm(post: BlogPostDetail): BlogPostForm {
  return {
    title: post.title,
    excerpt: post.excerpt,
    author: post.author,
    date: post.date,
    readTime: post.readTime,
    category: post.category,
    image: post.image,
    slug: post.slug,
    status: post.status,
    body: post.body,
  };
}

/** The request body as typed (the server trims, sanitises and reports). */
export function toBlogPostInput(form: BlogPostForm): BlogPostInput {
  return { ...form, category: form.category as BlogPostInput['category'] };
}

/** Server field errors (`error.fields`) by form field; anything else under `root`. */
export function blogFieldErrors(fields: Record<string, string> | undefined): Partial<Record<BlogFormField | 'root', string>> {
  const out: Partial<Record<BlogFormField | 'root', string>> = {};
  for (const [path, message] of Object.entries(fields ?? {})) {
    const head = path.split('.')[0] ?? '';
    const field = (BLOG_FORM_FIELDS as readonly string[]).includes(head) ? (head as BlogFormField) : 'root';
    out[field] ??= message;
  }
  return out;
}

/** react-hook-form resolver: valid when the body passes `blogPostInput`. */
export const blogPostResolver: Resolver<BlogPostForm> = (values, _context, options) => {
  const result = blogPostInput.safeParse(toBlogPostInput(values));
  const errors: FieldErrors = {};
  if (!result.success) {
    for (const issue of result.error.issues) {
      const head = String(issue.path[0] ?? 'root');
      errors[head] ??= { type: 'validation', message: issue.message };
    }
  }
  // The Markdown body is stored as written and rendered through a sanitizer; script-like markup is refused (server: looksLikeScript).
  if (looksLikeScript(values.body)) errors['body'] ??= { type: 'validation', message: SCRIPT_LIKE_MESSAGE };
  if (Object.keys(errors).length === 0) return { values, errors: {} };
  return { values: {}, errors: toNestErrors(errors, options) };
};

/** What a post's public address will be. */
export const postPath = (slug: string) => `/blog/${slug}`;
