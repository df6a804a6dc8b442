/**
 * Every page of the web app and who may open it (spec part 1 §2.1–2.2, part 2 "Route access").
 * The web router builds its guards from this table and the server uses it to answer unknown
 * paths with a real 404 (and log them) while still serving the app for known ones.
 */
import type { Role } from './roles';

export type PageAccess = 'public' | 'signed-in' | readonly Role[];

export interface PageRoute {
  /** Paths that show the same screen; the first is canonical. `:name` matches one segment. */
  paths: readonly string[];
  access: PageAccess;
}

const ADMIN: readonly Role[] = ['admin'];
const STAFF: readonly Role[] = ['admin', 'manager'];

export const PAGE_ROUTES = {
  home: { paths: ['/'], access: 'public' },
  signIn: { paths: ['/login', '/auth/sign-in'], access: 'public' },
  signUp: { paths: ['/register', '/auth/sign-up'], access: 'public' },
  forgotPassword: { paths: ['/forgot-password', '/auth/forgot-password'], access: 'public' },
  resetPassword: { paths: ['/reset-password', '/auth/reset-password'], access: 'public' },
  services: { paths: ['/services', '/our-services'], access: 'public' },
  about: { paths: ['/about', '/about-us'], access: 'public' },
  contact: { paths: ['/contact', '/contact-us'], access: 'public' },
  blog: { paths: ['/blog'], access: 'public' },
  blogPost: { paths: ['/blog/:slug'], access: 'public' },
  features: { paths: ['/features'], access: 'public' },
  clientSignup: { paths: ['/client-signup'], access: 'public' },
  unauthorized: { paths: ['/unauthorized', '/error/unauthorized'], access: 'public' },
  // A share link of the AI Summary: read-only, opens without sign-in (common/api/summary-shares.ts).
  sharedSummary: { paths: ['/shared/summary/:token'], access: 'public' },
  // An invitation to a client business: set a password and join (common/api/onboarding.ts).
  invitation: { paths: ['/invite/:token'], access: 'public' },

  // The prototype shows no guard on /client-dashboard, but it shows one business's private data,
  // so it needs a signed-in user (docs/DECISIONS.md).
  clientDashboard: { paths: ['/client-dashboard'], access: 'signed-in' },
  dashboard: { paths: ['/dashboard', '/user/dashboard'], access: 'signed-in' },
  clients: { paths: ['/clients'], access: 'signed-in' },
  conversations: { paths: ['/conversations'], access: 'signed-in' },
  messages: { paths: ['/messages'], access: 'signed-in' },
  insights: { paths: ['/insights'], access: 'signed-in' },
  settings: { paths: ['/settings'], access: 'signed-in' },
  profile: { paths: ['/profile'], access: 'signed-in' },
  webhooks: { paths: ['/webhooks'], access: 'signed-in' },
  summary: { paths: ['/summary'], access: 'signed-in' },
  automations: { paths: ['/automations'], access: 'signed-in' },
  notifications: { paths: ['/notifications'], access: 'signed-in' },
  // Linked from the manager's sidebar (§2.10) but missing from the route tables.
  agents: { paths: ['/agents'], access: STAFF },
  analytics: { paths: ['/analytics'], access: STAFF },

  adminDashboard: { paths: ['/admin', '/admin/dashboard'], access: ADMIN },
  productionStatus: { paths: ['/admin/production-status', '/production-readiness'], access: ADMIN },
  adminConversations: { paths: ['/admin/conversations'], access: ADMIN },
  adminInsights: { paths: ['/admin/insights'], access: ADMIN },
  adminTemplates: { paths: ['/admin/templates', '/templates'], access: ADMIN },
  adminN8n: { paths: ['/admin/n8n-workflows', '/n8n'], access: ADMIN },
  adminZapier: { paths: ['/admin/zapier-zaps', '/zapier'], access: ADMIN },
  adminWebhooks: { paths: ['/admin/webhooks'], access: ADMIN },
  adminAutomations: { paths: ['/admin/automations'], access: ADMIN },
  adminClients: { paths: ['/admin/clients'], access: ADMIN },
  adminUsers: { paths: ['/admin/users'], access: ADMIN },
  adminOutbox: { paths: ['/admin/outbox'], access: ADMIN },
  // Invoices, cash payments and clients' plans (issue 17 §2, docs/billing.md).
  adminBilling: { paths: ['/admin/billing'], access: ADMIN },
} as const satisfies Record<string, PageRoute>;

export type PageName = keyof typeof PAGE_ROUTES;

/**
 * The public site's pages, rendered on the server from stored content (issue 15 §4,
 * server/http/public-site.ts, web/src/app/site): their HTML carries the content, and a small
 * script adds what is interactive. The web app never renders them; a link to one loads the page.
 */
export const SITE_PAGES = ['home', 'services', 'about', 'contact', 'blog', 'blogPost', 'features'] as const satisfies readonly PageName[];
export type SitePageName = (typeof SITE_PAGES)[number];

/**
 * Pages whose address is a secret (a share link's or an invitation's token): search engines are
 * told not to index them (the server's `X-Robots-Tag`, the page's robots meta).
 */
export const UNLISTED_PAGES = ['sharedSummary', 'invitation'] as const satisfies readonly PageName[];

export function isUnlistedPage(name: PageName): boolean {
  return (UNLISTED_PAGES as readonly PageName[]).includes(name);
}

export function isSitePage(name: PageName): name is SitePageName {
  return (SITE_PAGES as readonly PageName[]).includes(name);
}

function segmentsMatch(pattern: string, path: string): boolean {
  const p = pattern.split('/');
  const s = path.split('/');
  if (p.length !== s.length) return false;
  return p.every((part, i) => (part.startsWith(':') ? (s[i] ?? '') !== '' : part === s[i]));
}

/** The page a path belongs to, ignoring a trailing slash; undefined for an unknown path. */
export function findPage(pathname: string): { name: PageName; route: PageRoute } | undefined {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/u, '') : pathname;
  for (const [name, route] of Object.entries(PAGE_ROUTES) as [PageName, PageRoute][]) {
    if (route.paths.some((pattern) => segmentsMatch(pattern, path))) return { name, route };
  }
  return undefined;
}

export function canOpen(access: PageAccess, role: Role | null): boolean {
  if (access === 'public') return true;
  if (role === null) return false;
  if (access === 'signed-in') return true;
  return access.includes(role);
}
