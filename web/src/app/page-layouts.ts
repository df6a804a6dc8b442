/**
 * Which layout each page of common/routes.ts uses. A full record, so a page added to the manifest
 * does not compile until it has its layout here, its metadata in ./meta and its screen in pages.tsx.
 * Kept apart from the titles and descriptions so the first bundle stays small.
 */
import type { PageName } from '@common/routes';

/** `site`: rendered on the server (common/routes.ts SITE_PAGES); the web app only loads it as a document. */
export type PageLayout = 'site' | 'public' | 'auth' | 'app' | 'plain';

export const PAGE_LAYOUT = {
  home: 'site',
  services: 'site',
  about: 'site',
  contact: 'site',
  blog: 'site',
  blogPost: 'site',
  features: 'site',
  clientSignup: 'public',
  signIn: 'auth',
  signUp: 'auth',
  forgotPassword: 'auth',
  resetPassword: 'auth',
  unauthorized: 'plain',
  sharedSummary: 'plain',
  invitation: 'plain',
  dashboard: 'app',
  clientDashboard: 'app',
  clients: 'app',
  conversations: 'app',
  messages: 'app',
  insights: 'app',
  settings: 'app',
  profile: 'app',
  webhooks: 'app',
  summary: 'app',
  automations: 'app',
  notifications: 'app',
  agents: 'app',
  analytics: 'app',
  adminDashboard: 'app',
  productionStatus: 'app',
  adminConversations: 'app',
  adminInsights: 'app',
  adminTemplates: 'app',
  adminN8n: 'app',
  adminZapier: 'app',
  adminWebhooks: 'app',
  adminAutomations: 'app',
  adminClients: 'app',
  adminUsers: 'app',
  adminOutbox: 'app',
  adminBilling: 'app',
} as const satisfies Record<PageName, PageLayout>;

/** The pages of one layout, e.g. `PagesOf<'auth'>` = 'signIn' | 'signUp' | … */
export type PagesOf<L extends PageLayout> = {
  [K in PageName]: (typeof PAGE_LAYOUT)[K] extends L ? K : never;
}[PageName];

export interface PageMeta {
  /** Document title (and the shell header's title on signed-in pages). */
  title: string;
  description: string;
  /** The shell header's subtitle. */
  subtitle?: string;
}

/** The metadata of the page at `pathname` in one layout's record, if the page is in that layout. */
export function metaFor(record: Partial<Record<PageName, PageMeta>>, name: PageName | undefined): PageMeta | undefined {
  return name === undefined ? undefined : record[name];
}
