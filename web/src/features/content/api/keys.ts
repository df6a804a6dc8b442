import type { ContentSectionKey } from '@common/api/content';

/** Query keys of the content panel: page content, hero stats, blog posts, contact messages, subscribers. */
export const contentKeys = {
  all: ['content'] as const,
  sections: () => [...contentKeys.all, 'sections'] as const,
  revisions: (section: ContentSectionKey) => [...contentKeys.all, 'revisions', section] as const,
  revision: (section: ContentSectionKey, revisionId: string) => [...contentKeys.all, 'revisions', section, revisionId] as const,
  heroStats: () => [...contentKeys.all, 'hero-stats'] as const,
  /** What the public pages read now (the Features page's integration statuses). */
  public: () => [...contentKeys.all, 'public'] as const,
};

export const blogPostKeys = {
  all: ['blog-posts'] as const,
  list: () => [...blogPostKeys.all, 'list'] as const,
  detail: (id: number) => [...blogPostKeys.all, 'detail', id] as const,
};

export const contactMessageKeys = {
  all: ['contact-messages'] as const,
  list: () => [...contactMessageKeys.all, 'list'] as const,
  detail: (id: string) => [...contactMessageKeys.all, 'detail', id] as const,
};

export const newsletterKeys = {
  all: ['newsletter-subscribers'] as const,
  list: () => [...newsletterKeys.all, 'list'] as const,
};

export const sectionPath = (section: ContentSectionKey) => `/api/v1/content/${encodeURIComponent(section)}`;
export const heroStatPath = (id: string) => `/api/v1/content/hero-stats/${encodeURIComponent(id)}`;
export const blogPostPath = (id: number) => `/api/v1/blog-posts/${encodeURIComponent(String(id))}`;
export const contactMessagePath = (id: string) => `/api/v1/contact-messages/${encodeURIComponent(id)}`;
/** The subscribers as CSV (a plain link: the browser sends the session cookie and saves the file). */
export const NEWSLETTER_CSV_PATH = '/api/v1/newsletter-subscribers.csv';
