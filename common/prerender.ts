/**
 * The auth pages pre-rendered by the server (server/http/web-app.ts): the renderer
 * (web/src/app/site/render.tsx) turns one into markup, and the document carries the data the app's
 * first render needs to look the same (`BootData`, in `<script type="application/json" id="parley-boot">`).
 */
import type { ProvidersResponse } from './api/auth';
import type { PageName } from './routes';

export const AUTH_PAGES = ['signIn', 'signUp', 'forgotPassword', 'resetPassword'] as const satisfies readonly PageName[];
export type AuthPageName = (typeof AUTH_PAGES)[number];

/** The attribute of a pre-rendered #root; the app removes it once it has taken the page over. */
export const PRERENDERED = 'data-prerendered';
/**
 * Marks a pre-rendered field the visitor has been in, set by the page's first script
 * (web/src/app/prerender-boot.ts): a form validating "on touched" then shows that field's errors.
 */
export const VISITED = 'data-visited';

/** The element id of the boot data in the document. */
export const BOOT_DATA_ID = 'parley-boot';

export interface BootData {
  /** The social sign-in buttons the server offers (GET /api/v1/auth/providers). */
  providers: ProvidersResponse;
}

export interface AuthRenderInput {
  page: AuthPageName;
  /** The path and query string asked for (the screen reads `step`, `redirectTo`, `token`). */
  url: string;
  boot: BootData;
}

export interface AuthRenderResult {
  /** The page's markup (inside #root). */
  body: string;
  title: string;
  description: string;
}
