/** The auth module: sign-up, sign-in (password, Google), sessions, lockout and account e-mails. */
export { AuthService, type RequestMeta, type WithCookies } from './auth.service';
export type { BetterAuth } from './better-auth';
export { forwardCookies, requestMeta } from './request-meta';
export type { SessionRow } from './sessions.repository';
