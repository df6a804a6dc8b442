/**
 * The public site rendered on the server (issue 15 §4): what the server hands the renderer
 * (web/src/app/site/render.tsx, built to dist/ssr) and what it gets back. The server reads the
 * data (ContentService.publicSite) and writes the document around the rendered body
 * (server/http/public-site.ts); the renderer only turns data into markup.
 */
import type {
  AboutContent,
  BlogPageContent,
  ContactContent,
  HeroContent,
  IntegrationStatus,
  PublicBlogPost,
  ServicesContent,
} from './api/content';
import type { AuthRenderInput, AuthRenderResult } from './prerender';
import type { SitePageName } from './routes';

export type PublicPostSummary = Omit<PublicBlogPost, 'bodyHtml'>;

export interface SiteContent {
  hero: HeroContent;
  /** Active stats, in order. */
  heroStats: readonly { number: string; label: string }[];
  services: ServicesContent;
  blog: BlogPageContent;
  about: AboutContent;
  contact: ContactContent;
  integrations: readonly { id: string; name: string; status: IntegrationStatus }[];
  /** Published posts, newest first (without bodies). */
  posts: readonly PublicPostSummary[];
}

export interface SiteRenderInput {
  page: SitePageName;
  /** The path asked for (an alias keeps its own path; the canonical one is in the result). */
  path: string;
  /** The query string's parameters the pages read (`category` on /blog, `newsletter` notices). */
  query: Readonly<Record<string, string>>;
  content: SiteContent;
  /** For `blogPost`: the post, or null when no published post has the slug (a 404 page). */
  post?: PublicBlogPost | null;
}

export interface SiteRenderResult {
  status: 200 | 404;
  /** The page's markup (inside <body>). */
  body: string;
  title: string;
  description: string;
  /** The canonical path of the page (absolute URLs are made by the server from PUBLIC_URL). */
  canonicalPath: string;
  /** Open Graph: an https image and the page type. */
  image: string | null;
  type: 'website' | 'article';
  publishedTime: string | null;
}

export interface SiteRenderer {
  renderSite(input: SiteRenderInput): SiteRenderResult;
  /** An auth page of the web app, pre-rendered (common/prerender.ts, server/http/web-app.ts). */
  renderAuth(input: AuthRenderInput): AuthRenderResult;
}
