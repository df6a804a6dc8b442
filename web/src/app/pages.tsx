/**
 * The screen of every page, loaded on demand: the landing page's bundle holds none of the signed-in
 * app. Typed as a full record over common/routes.ts, so every route (aliases included) exists.
 */
import { lazy, type ComponentType } from 'react';
import type { PageName } from '@common/routes';
import { lazyWithPreload, type Preloadable } from '@/lib/preloadable';
import type { PagesOf } from './page-layouts';

type Screen = ComponentType;

/**
 * Pages whose screens are not built yet: they share one screen saying "<Feature> is not available
 * yet." (`./routes/app/upcoming`, features/upcoming). None at the moment.
 */
export const UPCOMING_PAGES: readonly PageName[] = [];
/** Analytics and Insights: one screen at /insights, /analytics and /admin/insights. */
const Insights = lazy(() => import('./routes/app/insights'));
/** The server renders the public site: reached from inside the app, it is loaded as a document. */
const SiteDocument = lazy(() => import('./routes/site-document'));

/**
 * The auth pages' screens: the server pre-renders these pages (server/http/web-app.ts) and the app
 * preloads the screen before taking the page over (main.tsx).
 */
export const AUTH_SCREENS = {
  signIn: lazyWithPreload(() => import('./routes/auth/sign-in')),
  signUp: lazyWithPreload(() => import('./routes/auth/sign-up')),
  forgotPassword: lazyWithPreload(() => import('./routes/auth/forgot-password')),
  resetPassword: lazyWithPreload(() => import('./routes/auth/reset-password')),
} as const satisfies Record<PagesOf<'auth'>, Preloadable>;

export const PAGE_COMPONENTS: Record<PageName, Screen> = {
  home: SiteDocument,
  services: SiteDocument,
  about: SiteDocument,
  contact: SiteDocument,
  blog: SiteDocument,
  blogPost: SiteDocument,
  features: SiteDocument,
  clientSignup: lazy(() => import('./routes/public/client-signup')),
  signIn: AUTH_SCREENS.signIn,
  signUp: AUTH_SCREENS.signUp,
  forgotPassword: AUTH_SCREENS.forgotPassword,
  resetPassword: AUTH_SCREENS.resetPassword,
  unauthorized: lazy(() => import('./routes/unauthorized')),
  sharedSummary: lazy(() => import('./routes/public/shared-summary')),
  invitation: lazy(() => import('./routes/public/invitation')),

  dashboard: lazy(() => import('./routes/app/dashboard')),
  profile: lazy(() => import('./routes/app/profile')),
  settings: lazy(() => import('./routes/app/settings')),
  notifications: lazy(() => import('./routes/app/notifications')),
  adminUsers: lazy(() => import('./routes/app/admin-users')),
  adminOutbox: lazy(() => import('./routes/app/admin-outbox')),
  adminBilling: lazy(() => import('./routes/app/admin-billing')),
  conversations: lazy(() => import('./routes/app/conversations')),
  messages: lazy(() => import('./routes/app/messages')),
  clients: lazy(() => import('./routes/app/clients')),
  adminClients: lazy(() => import('./routes/app/admin-clients')),
  adminConversations: lazy(() => import('./routes/app/admin-conversations')),
  agents: lazy(() => import('./routes/app/agents')),
  adminTemplates: lazy(() => import('./routes/app/admin-templates')),
  adminN8n: lazy(() => import('./routes/app/admin-n8n')),
  adminZapier: lazy(() => import('./routes/app/admin-zapier')),

  clientDashboard: lazy(() => import('./routes/app/client-dashboard')),
  insights: Insights,
  webhooks: lazy(() => import('./routes/app/webhooks')),
  summary: lazy(() => import('./routes/app/summary')),
  automations: lazy(() => import('./routes/app/automations')),
  analytics: Insights,
  adminDashboard: lazy(() => import('./routes/app/admin-content')),
  productionStatus: lazy(() => import('./routes/app/production-status')),
  adminInsights: Insights,
  adminWebhooks: lazy(() => import('./routes/app/webhooks')),
  adminAutomations: lazy(() => import('./routes/app/automations')),
};

export const NotFoundScreen = lazy(() => import('./routes/not-found'));
