import { describe, expect, it } from 'vitest';
import type { BlogPostDetail } from '@common/api/content';
import { blogFieldErrors, blogPostResolver, dateText, newBlogPostForm, toBlogPostForm, type BlogPostForm } from './blog-form';

const resolve = (values: BlogPostForm) => blogPostResolver(values, undefined, { fields: {}, shouldUseNativeValidation: false });

const complete: BlogPostForm = {
  title: 'Five conversations to hand to a person',
  excerpt: 'Refunds, complaints and anything urgent.',
  author: 'Ada',
  date: 'March 15, 2024',
  readTime: '5 min read',
  category: 'Automation',
  image: 'https://images.example.com/cover.jpg',
  slug: '',
  status: 'draft',
  body: '',
};

describe('the blog post form', () => {
  it('starts a new post as a draft dated today by the editor', () => {
    expect(newBlogPostForm('Ada Lovelace', new Date('2024-03-15T12:00:00Z'))).toMatchObject({ author: 'Ada Lovelace', date: 'March 15, 2024', status: 'draft', slug: '' });
    expect(dateText(new Date('2026-11-27T12:00:00Z'))).toBe('November 27, 2026');
  });

  it('requires every field of the spec and a category of the six', async () => {
    const empty = { ...newBlogPostForm(''), date: '' };
    const { errors } = await resolve(empty);
    expect(Object.fromEntries(Object.entries(errors).map(([field, error]) => [field, error?.message]))).toEqual({
      title: 'Title is required',
      excerpt: 'Excerpt is required',
      author: 'Author is required',
      date: 'Date is required',
      readTime: 'Read time is required',
      category: 'Choose one of the six categories',
      image: 'Image URL is required',
    });
  });

  it('takes images by full https URL only, never a short link', async () => {
    expect((await resolve({ ...complete, image: 'http://images.example.com/a.jpg' })).errors.image?.message).toBe('Please enter a full https:// URL');
    expect((await resolve({ ...complete, image: 'images.example.com/a.jpg' })).errors.image?.message).toBe('Please enter a full https:// URL');
    expect((await resolve({ ...complete, image: 'https://bit.ly/abc' })).errors.image?.message).toBe('Short links are not allowed; use the full address');
    expect((await resolve(complete)).errors).toEqual({});
  });

  it('accepts an empty slug (made from the title) and refuses a malformed one', async () => {
    expect((await resolve({ ...complete, slug: 'my-post' })).errors).toEqual({});
    expect((await resolve({ ...complete, slug: 'My Post!' })).errors.slug?.message).toBe('Use lowercase letters, digits and single hyphens');
  });

  it('refuses script-like markup in the Markdown body, and keeps quotes and code', async () => {
    expect((await resolve({ ...complete, body: 'Hello <script>alert(1)</script>' })).errors.body?.message).toBe('Scripts, frames and embedded objects are not allowed');
    expect((await resolve({ ...complete, body: '> a quote\n\n`a < b`' })).errors).toEqual({});
  });

  it('edits a stored post as it is', () => {
    const post: BlogPostDetail = {
      ...complete,
      id: 7,
      slug: 'five-conversations',
      category: 'Automation',
      status: 'published',
      body: '## Hi',
      bodyHtml: '<h2>Hi</h2>',
      publishedAt: '2026-11-27T10:00:00.000Z',
      createdAt: '2026-11-27T10:00:00.000Z',
      updatedAt: '2026-11-27T10:00:00.000Z',
      version: 3,
    };
    expect(toBlogPostForm(post)).toEqual({ ...complete, slug: 'five-conversations', status: 'published', body: '## Hi' });
  });

  it('puts the server’s field errors on their fields', () => {
    expect(blogFieldErrors({ slug: 'This slug is already taken', 'image.0': 'Bad', other: 'Something else' })).toEqual({
      slug: 'This slug is already taken',
      image: 'Bad',
      root: 'Something else',
    });
  });
});
