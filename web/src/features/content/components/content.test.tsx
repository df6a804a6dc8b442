import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ContactMessageDetail } from '@common/api/contact';
import type { BlogPostDetail, BlogPostSummary, ContentSectionView, HeroStat } from '@common/api/content';
import { DEFAULT_CONTENT } from '@common/marketing/defaults';
import { setSessionUser } from '@/lib/session';
import { blogPostKeys, contentKeys, newsletterKeys } from '../api/keys';
import { BlogPostFormCard } from './blog-post-form';
import { BlogPostItem } from './blog-posts-tab';
import { ContentPanel } from './content-panel';
import { HeroEditor } from './hero-editor';
import { MessageDetail, MessageListItem } from './messages-panel';
import { NewsletterSubscribers } from './newsletter-subscribers';
import { RevisionItem } from './revision-history';
import { savedLine } from './section-editor';

const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/gu, ' ')
    .replace(/&quot;/gu, '"')
    .replace(/&#x27;/gu, "'")
    .replace(/&amp;/gu, '&')
    .replace(/\s+/gu, ' ')
    .trim();

const post: BlogPostSummary = {
  id: 3,
  slug: 'connect-n8n',
  title: 'Connect your first n8n workflow',
  excerpt: 'From a webhook trigger to a message back.',
  author: 'Parley Team',
  date: 'February 28, 2024',
  readTime: '8 min read',
  category: 'Tutorial',
  image: 'https://images.example.com/n8n.jpg',
  status: 'published',
  publishedAt: '2026-11-27T10:00:00.000Z',
  createdAt: '2026-11-27T10:00:00.000Z',
  updatedAt: '2026-11-27T10:00:00.000Z',
  version: 2,
};

const sections: ContentSectionView[] = (Object.keys(DEFAULT_CONTENT) as (keyof typeof DEFAULT_CONTENT)[]).map((section) => ({
  section,
  data: DEFAULT_CONTENT[section],
  version: 0,
  updatedAt: null,
  updatedBy: null,
}));

const heroStats: HeroStat[] = [
  { id: '00000000-0000-4000-8000-000000000001', number: '99.9%', label: 'Uptime', order: 0, isActive: true, createdAt: post.createdAt, updatedAt: post.createdAt },
  { id: '00000000-0000-4000-8000-000000000002', number: '24/7', label: 'Support', order: 1, isActive: false, createdAt: post.createdAt, updatedAt: post.createdAt },
];

function render(node: ReactNode, seed: (client: QueryClient) => void = () => undefined): string {
  const client = new QueryClient();
  seed(client);
  return renderToStaticMarkup(<QueryClientProvider client={client}>{node}</QueryClientProvider>);
}

beforeAll(() => {
  setSessionUser({
    id: '6f1c2a40-0000-4b5e-9a51-5a7e1e000001',
    email: 'admin@parley.test',
    name: 'Ada Admin',
    role: 'admin',
    avatarUrl: null,
    phone: null,
    company: null,
    clientId: null,
    emailVerified: true,
    mfaEnabled: false,
    createdAt: '2026-11-24T10:00:00.000Z',
    lastLogin: null,
  });
});

describe('the Content Management Panel', () => {
  it('has the spec’s three tabs and shows the posts first, with New Post', () => {
    const html = render(<ContentPanel tab="posts" onTabChange={() => undefined} section="hero" onSectionChange={() => undefined} n8n={<p>THE N8N GUIDE</p>} />, (client) =>
      client.setQueryData(blogPostKeys.list(), [post]),
    );
    const text = textOf(html);
    expect(html.match(/role="tab"/gu)).toHaveLength(3);
    expect(text).toContain('Blog Posts Page Content N8N Integration');
    expect(text).toContain('New Post');
    expect(text).toContain('Connect your first n8n workflow');
    expect(text).not.toContain('THE N8N GUIDE');
  });

  it('shows the slot it is given in the N8N Integration tab', () => {
    const html = render(<ContentPanel tab="n8n" onTabChange={() => undefined} section="hero" onSectionChange={() => undefined} n8n={<p>THE N8N GUIDE</p>} />);
    expect(textOf(html)).toContain('THE N8N GUIDE');
  });

  it('offers every page section in the Page Content tab', () => {
    const html = render(<ContentPanel tab="content" onTabChange={() => undefined} section="hero" onSectionChange={() => undefined} n8n={null} />, (client) => {
      client.setQueryData(contentKeys.sections(), sections);
      client.setQueryData(contentKeys.heroStats(), heroStats);
    });
    expect(textOf(html)).toContain('Hero Services Blog page About Contact Features Messages Newsletter');
  });
});

describe('a blog post in the list', () => {
  it('shows its status, its public address once published, and Edit and Delete named after it', () => {
    const text = textOf(render(<BlogPostItem post={post} onEdit={() => undefined} />));
    expect(text).toContain('Published');
    expect(text).toContain('/blog/connect-n8n');
    expect(text).toContain('Tutorial · Parley Team · February 28, 2024 · 8 min read');
    const html = render(<BlogPostItem post={post} onEdit={() => undefined} />);
    expect(html).toContain('aria-label="Edit Connect your first n8n workflow"');
    expect(html).toContain('aria-label="Delete Connect your first n8n workflow"');
  });

  it('says a draft is not public', () => {
    const text = textOf(render(<BlogPostItem post={{ ...post, status: 'draft', publishedAt: null }} onEdit={() => undefined} />));
    expect(text).toContain('Draft');
    expect(text).toContain('/blog/connect-n8n (not public while a draft)');
  });
});

describe('the post form', () => {
  it('is "Create New Post" with the image hint, Create Post and Cancel', () => {
    const html = render(<BlogPostFormCard author="Ada Admin" onDone={() => undefined} />);
    const text = textOf(html);
    expect(text).toContain('Create New Post');
    expect(text).toContain('Images are hosted externally: enter the full https:// URL of the image.');
    expect(text).toContain('Create Post');
    expect(text).toContain('Cancel');
    for (const label of ['Title', 'Excerpt', 'Author', 'Date', 'Read time', 'Category', 'Image URL', 'Slug', 'Status', 'Body']) expect(text).toContain(label);
  });

  it('is "Edit Post" with Update Post for a stored post', () => {
    const detail: BlogPostDetail = { ...post, body: '## Hello', bodyHtml: '<h2>Hello</h2>' };
    const text = textOf(render(<BlogPostFormCard post={detail} author="Ada Admin" onDone={() => undefined} />));
    expect(text).toContain('Edit Post');
    expect(text).toContain('Update Post');
    expect(text).not.toContain('Create Post');
  });
});

describe('the hero editor', () => {
  it('has Save Changes and Reset to Defaults, says the defaults are shown, and lists the stats with their state', () => {
    const html = render(<HeroEditor />, (client) => {
      client.setQueryData(contentKeys.sections(), sections);
      client.setQueryData(contentKeys.heroStats(), heroStats);
    });
    const text = textOf(html);
    expect(text).toContain('Save Changes');
    expect(text).toContain('Reset to Defaults');
    expect(text).toContain('Not saved yet: the site shows the default content.');
    // Registered inputs get their values in the browser (react-hook-form sets them on mount).
    expect(html).toContain('id="hero-heading"');
    expect(text).toContain('Hero stats');
    expect(text).toContain('Shown');
    expect(text).toContain('Hidden');
    expect(html).toContain('aria-label="Hide Uptime"');
    expect(html).toContain('aria-label="Show Support"');
    expect(text).toContain('Save Stats');
    expect(text).toContain('Show History');
  });

  it('says who saved a section last', () => {
    expect(savedLine({ version: 4, updatedAt: '2026-11-27T10:00:00.000Z', updatedBy: { id: 'x', name: 'Ada Admin' } })).toMatch(/^Version 4, saved by Ada Admin on /u);
  });
});

describe('a revision', () => {
  const revision = {
    id: '00000000-0000-4000-8000-0000000000a1',
    version: 2,
    kind: 'save' as const,
    restoredFrom: null,
    createdAt: '2026-11-27T10:00:00.000Z',
    createdBy: { id: 'u', name: 'Ada Admin' },
  };

  it('can be restored unless it is the current one', () => {
    const older = renderToStaticMarkup(<RevisionItem revision={revision} current={false} dirty={false} restoring={false} onView={() => undefined} onRestore={() => undefined} />);
    expect(textOf(older)).toContain('Version 2 · Saved');
    expect(textOf(older)).toContain('Ada Admin');
    expect(older).toContain('aria-label="Restore version 2"');
    expect(older).toContain('aria-label="View version 2"');
    const current = renderToStaticMarkup(<RevisionItem revision={revision} current dirty={false} restoring={false} onView={() => undefined} onRestore={() => undefined} />);
    expect(textOf(current)).toContain('Current');
    expect(current).not.toContain('Restore version 2');
  });
});

describe('contact messages', () => {
  const message: ContactMessageDetail = {
    id: '00000000-0000-4000-8000-0000000000c1',
    firstName: 'Grace',
    lastName: 'Hopper',
    email: 'grace@example.com',
    company: 'Navy',
    message: 'Can Parley answer on WhatsApp?',
    createdAt: '2026-11-27T10:00:00.000Z',
    read: false,
    readAt: null,
    replyCount: 1,
    replies: [{ id: '00000000-0000-4000-8000-0000000000d1', body: 'Yes, it can.', sentAt: '2026-11-27T11:00:00.000Z', sentBy: { id: 'u', name: 'Ada Admin' }, emailId: null }],
  };

  it('marks an unread message in the list', () => {
    const unread = renderToStaticMarkup(<MessageListItem message={message} selected={false} onOpen={() => undefined} />);
    expect(unread).toContain('data-unread="true"');
    expect(textOf(unread)).toContain('Grace Hopper (unread)');
    const read = renderToStaticMarkup(<MessageListItem message={{ ...message, read: true }} selected onOpen={() => undefined} />);
    expect(read).not.toContain('data-unread');
    expect(read).toContain('aria-current="true"');
  });

  it('shows an open message with its replies, Reply, the mail link and Delete', () => {
    const html = render(<MessageDetail message={message} onDeleted={() => undefined} />);
    const text = textOf(html);
    expect(text).toContain('Can Parley answer on WhatsApp?');
    expect(text).toContain('Yes, it can.');
    expect(text).toContain('Send Reply');
    expect(text).toContain('Reply by e-mail');
    expect(html).toContain('href="mailto:grace@example.com?subject=');
    expect(html).toContain('aria-label="Delete the message from Grace Hopper"');
  });
});

describe('the newsletter subscribers', () => {
  it('shows the counts and the CSV export link', () => {
    const html = render(<NewsletterSubscribers />, (client) =>
      client.setQueryData(newsletterKeys.list(), {
        subscribers: [
          { id: '00000000-0000-4000-8000-0000000000e1', email: 'reader@example.com', status: 'subscribed', createdAt: post.createdAt, confirmedAt: post.createdAt, unsubscribedAt: null },
        ],
        counts: { pending: 2, subscribed: 1, unsubscribed: 0 },
      }),
    );
    expect(html).toContain('href="/api/v1/newsletter-subscribers.csv"');
    const text = textOf(html);
    expect(text).toContain('Export CSV');
    expect(text).toContain('Pending confirmation 2 Subscribed 1 Unsubscribed 0');
    expect(text).toContain('reader@example.com');
  });
});
