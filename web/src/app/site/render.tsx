/**
 * The server renderer of the public site (issue 15 §4): built with Vite's SSR build to
 * dist/ssr/render.js and called by server/http/public-site.ts with the stored content. (It also
 * pre-renders the web app's auth pages: `renderAuth`, for server/http/web-app.ts.) It renders
 * the page's markup only — static HTML, no React on the client: what is interactive (the menu,
 * the contact and newsletter forms, the signed-in account area, the chat widget) is added by the
 * small site script (./islands.ts).
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import type { AuthRenderInput, AuthRenderResult } from '@common/prerender';
import type { SiteRenderer, SiteRenderInput, SiteRenderResult } from '@common/site';
import { PAGE_ROUTES } from '@common/routes';
import { documentTitle } from '@/components/seo/head';
import { TooltipProvider } from '@/components/ui/tooltip';
import { getProvidersQueryOptions } from '@/features/auth/api/get-providers';
import { AboutPage } from '@/features/marketing/components/about-page';
import { BlogPage } from '@/features/marketing/components/blog-page';
import { BlogPostNotFound, BlogPostPage } from '@/features/marketing/components/blog-post-page';
import { ContactPage } from '@/features/marketing/components/contact-page';
import { FeaturesPage } from '@/features/marketing/components/features-page';
import { LandingFeatures } from '@/features/marketing/components/landing-features';
import { LandingHero } from '@/features/marketing/components/landing-hero';
import { PublicFooter } from '@/features/marketing/components/public-footer';
import { PublicNav } from '@/features/marketing/components/public-nav';
import { ServicesPage } from '@/features/marketing/components/services-page';
import { FEATURE_HIGHLIGHTS } from '@/features/marketing/content/hero';
import { AuthFrame } from '../layouts/auth-layout';
import { AUTH_PAGE_META } from '../meta/auth-meta';
import { SITE_PAGE_META } from '../meta/site-meta';
import ForgotPasswordRoute from '../routes/auth/forgot-password';
import ResetPasswordRoute from '../routes/auth/reset-password';
import SignInRoute from '../routes/auth/sign-in';
import SignUpRoute from '../routes/auth/sign-up';

function Layout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-primary focus:px-3 focus:py-2 focus:text-primary-foreground"
      >
        Skip to content
      </a>
      <PublicNav account={{ status: 'signed-out' }} />
      <main id="main" className="flex-1">
        {children}
      </main>
      <PublicFooter />
    </div>
  );
}

interface PageParts {
  status: 200 | 404;
  element: ReactNode;
  title: string;
  description: string;
  image: string | null;
  type: 'website' | 'article';
  publishedTime: string | null;
}

function pageFor(input: SiteRenderInput): PageParts {
  const { content, query } = input;
  const meta = SITE_PAGE_META[input.page];
  const base = { status: 200 as const, title: documentTitle(meta.title), description: meta.description, image: null, type: 'website' as const, publishedTime: null };
  switch (input.page) {
    case 'home':
      return {
        ...base,
        element: (
          <>
            <LandingHero content={content.hero} stats={content.heroStats} />
            <LandingFeatures features={FEATURE_HIGHLIGHTS} />
          </>
        ),
      };
    case 'services':
      return { ...base, element: <ServicesPage content={content.services} /> };
    case 'about':
      return { ...base, element: <AboutPage about={content.about} contactEmail={content.contact.email} /> };
    case 'contact':
      return { ...base, element: <ContactPage contact={content.contact} /> };
    case 'features':
      return { ...base, element: <FeaturesPage integrations={content.integrations} /> };
    case 'blog': {
      const category = query.category && content.blog.categories.includes(query.category) && query.category !== 'All' ? query.category : null;
      return {
        ...base,
        title: documentTitle(content.blog.title === 'Blog' ? meta.title : content.blog.title),
        description: content.blog.subtitle || meta.description,
        element: <BlogPage page={content.blog} posts={content.posts} category={category} notice={query.newsletter ?? null} />,
      };
    }
    case 'blogPost': {
      const post = input.post ?? null;
      if (post === null) {
        return { ...base, status: 404, title: documentTitle('Post not found'), element: <BlogPostNotFound /> };
      }
      return {
        ...base,
        title: documentTitle(post.title),
        description: post.excerpt,
        image: post.image,
        type: 'article',
        publishedTime: post.publishedAt,
        element: <BlogPostPage post={post} />,
      };
    }
  }
}

function canonicalPath(input: SiteRenderInput): string {
  if (input.page === 'blogPost') return input.post ? `/blog/${input.post.slug}` : input.path;
  const canonical = PAGE_ROUTES[input.page].paths[0];
  if (input.page === 'blog' && input.query.category) return `${canonical}?category=${encodeURIComponent(input.query.category)}`;
  return canonical;
}

export function renderSite(input: SiteRenderInput): SiteRenderResult {
  const parts = pageFor(input);
  const search = new URLSearchParams(input.query).toString();
  const body = renderToStaticMarkup(
    <StaticRouter location={search ? `${input.path}?${search}` : input.path}>
      <Layout>{parts.element}</Layout>
    </StaticRouter>,
  );
  return {
    status: parts.status,
    body,
    title: parts.title,
    description: parts.description,
    canonicalPath: canonicalPath(input),
    image: parts.image,
    type: parts.type,
    publishedTime: parts.publishedTime,
  };
}

const AUTH_ROUTES = { signIn: SignInRoute, signUp: SignUpRoute, forgotPassword: ForgotPasswordRoute, resetPassword: ResetPasswordRoute };

/**
 * An auth page as the web app's first render shows it (before any request of its own answers),
 * with the providers the server offers: the app takes the markup over (web/src/main.tsx). Its
 * submit buttons render disabled while the fields are empty, so nothing is sent before the app runs.
 */
export function renderAuth(input: AuthRenderInput): AuthRenderResult {
  const Screen = AUTH_ROUTES[input.page];
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  client.setQueryData(getProvidersQueryOptions().queryKey, input.boot.providers);
  const body = renderToStaticMarkup(
    <StaticRouter location={input.url}>
      <QueryClientProvider client={client}>
        <TooltipProvider>
          <AuthFrame>
            <Screen />
          </AuthFrame>
        </TooltipProvider>
      </QueryClientProvider>
    </StaticRouter>,
  );
  client.clear();
  const meta = AUTH_PAGE_META[input.page];
  return { body, title: documentTitle(meta.title), description: meta.description };
}

export default { renderSite, renderAuth } satisfies SiteRenderer;
