/**
 * better-auth does the parts an auth library does well — password accounts, server-side
 * sessions, reset tokens, TOTP two-factor, OpenID Connect sign-in with PKCE, state and nonce.
 * Parley never exposes its HTTP handler wholesale: our own routes (auth.routes.ts) call
 * `auth.api.*` so the spec's texts, codes, lockout and validation hold, and only the OAuth
 * callback path is mounted (better-auth.routes.ts).
 */
import { betterAuth, type BetterAuthOptions } from 'better-auth';
import { genericOAuth, twoFactor } from 'better-auth/plugins';
import type { Logger } from 'pino';
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import type { PasswordHashing } from '../../lib/password-hash';
import type { UsersService } from '../users';
import { OAUTH_CALLBACK_PATH, parleyAuthPlugin } from './better-auth.plugin';

export const AUTH_BASE_PATH = '/api/auth';
/**
 * A session's cookie lives this long (about the longest browsers keep one); the session row's
 * `expires_at` — the lifetime an administrator sets (Admin Settings → Security, 7 days by
 * default), renewed while in use by AuthService — decides when it ends.
 */
export const SESSION_COOKIE_MAX_AGE_SECONDS = 400 * 24 * 60 * 60;
/** The longest a session in use goes without being renewed (AuthService `renewAfterMs`). */
export const SESSION_RENEW_AFTER_SECONDS = 24 * 60 * 60;
export const TOKEN_TTL_SECONDS = 60 * 60;
export const GOOGLE_PROVIDER_ID = 'google';
/** Where a failed social sign-in lands; the web app shows "Google Sign In Failed" for it. */
export const SOCIAL_ERROR_PATH = '/login?error=google';

/** Name and picture from the identity provider, fitted to the users table's limits. */
export function profileFromProvider(profile: { name?: unknown; email?: unknown; picture?: unknown }): { name: string; image: string | undefined } {
  const email = typeof profile.email === 'string' ? profile.email : '';
  const name = typeof profile.name === 'string' && profile.name.trim() !== '' ? profile.name.trim() : (email.split('@')[0] ?? '');
  const picture = typeof profile.picture === 'string' ? profile.picture : undefined;
  return {
    name: name.slice(0, 100),
    image: picture && picture.startsWith('https://') && picture.length <= 2048 ? picture : undefined,
  };
}

/** The reset page link mailed to the user (the page checks the token, then posts the new password). */
export function passwordResetUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
}

export interface BetterAuthDeps {
  config: Config;
  db: Db;
  secret: string;
  logger: Logger;
  /** Called by better-auth when a reset was requested for an existing account. */
  sendPasswordReset: (user: { id: string; email: string; name: string }, token: string) => Promise<void>;
  /** password-hash.ts, reporting to an observer (tests and the bench count verifications). */
  passwordHashing: PasswordHashing;
  /** How long a new session lasts without use (Admin Settings → Security). */
  sessionLifetimeSeconds: () => Promise<number>;
  /** The users module's accounts: disabled accounts get no session; logins and new accounts' roles are recorded. */
  users: Pick<UsersService, 'isDisabled' | 'touchLastLogin' | 'assignDefaultRole'>;
}

export function createBetterAuth(deps: BetterAuthDeps) {
  const { config, db, logger } = deps;
  const log = logger.child({ component: 'better-auth' });
  const options = {
    appName: 'Parley',
    baseURL: config.publicUrl,
    basePath: AUTH_BASE_PATH,
    secret: deps.secret,
    database: { db, type: 'postgres' },
    telemetry: { enabled: false },
    trustedOrigins: [new URL(config.publicUrl).origin],
    // OAuth callbacks that fail before the sign-in's own error URL is known (no or forged state).
    onAPIError: { errorURL: SOCIAL_ERROR_PATH },
    logger: {
      level: 'warn',
      log: (level, message, ...args) => {
        // A reset asked for an unknown address is ordinary traffic (the answer is the same), not a warning.
        const ordinary = message === 'Reset Password: User not found';
        const method = level === 'error' ? 'error' : level === 'warn' && !ordinary ? 'warn' : 'debug';
        log[method]({ args: args.length ? args : undefined }, message);
      },
    },
    // Per-IP limits are Fastify's (auth.routes.ts); the lockout is ours (lockout.ts).
    rateLimit: { enabled: false },
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      autoSignIn: false,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      password: deps.passwordHashing,
      resetPasswordTokenExpiresIn: TOKEN_TTL_SECONDS,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, token }) => {
        await deps.sendPasswordReset({ id: user.id, email: user.email, name: user.name }, token);
      },
    },
    // Verification e-mails are ours (single-use hashed tokens, better-auth.plugin.ts); this hook
    // only exists because better-auth requires one when verification is required.
    emailVerification: {
      sendOnSignUp: false,
      sendOnSignIn: false,
      sendVerificationEmail: async () => undefined,
    },
    user: {
      modelName: 'users',
      fields: { name: 'fullName', image: 'avatarUrl' },
      additionalFields: {
        phone: { type: 'string', required: false, input: false },
        company: { type: 'string', required: false, input: false },
      },
    },
    session: {
      modelName: 'sessions',
      // The cookie's Max-Age only: the session row's expiry is set by the create hook below and
      // renewed by AuthService.resolveSession, with the lifetime the administrators chose —
      // better-auth fixes its own at start, so its refresh is off.
      expiresIn: SESSION_COOKIE_MAX_AGE_SECONDS,
      disableSessionRefresh: true,
      // Every request reads the session row, so a revoked session stops working at once.
      cookieCache: { enabled: false },
    },
    account: {
      modelName: 'accounts',
      // A social account whose provider vouches for the e-mail links to the existing user.
      accountLinking: { enabled: true, trustedProviders: [], allowDifferentEmails: false },
    },
    verification: { modelName: 'verifications', storeIdentifier: 'hashed' },
    advanced: {
      cookiePrefix: 'parley',
      useSecureCookies: config.publicUrl.startsWith('https://'),
      database: { generateId: 'uuid' },
      ipAddress: { ipAddressHeaders: config.trustProxy ? ['x-forwarded-for'] : ['x-parley-client-ip'] },
    },
    databaseHooks: {
      session: {
        create: {
          // Every way of signing in (password, two-factor, verification link, Google) creates a
          // session here, so a disabled account is refused here once for all of them.
          // It also lasts the session lifetime set in Admin Settings → Security.
          before: async (session) => {
            if (await deps.users.isDisabled(session.userId)) return false;
            return { data: { expiresAt: new Date(Date.now() + (await deps.sessionLifetimeSeconds()) * 1000) } };
          },
          // Every way of signing in creates a session: record it as the user's last login.
          after: async (session) => {
            await deps.users.touchLastLogin(session.userId, session.createdAt);
          },
        },
      },
      user: {
        create: {
          // An identity provider that does not vouch for the e-mail cannot create an account
          // with it: whoever owns the mailbox could otherwise find someone else's Google
          // sign-in attached to "their" account later. (Linking refuses it too, in better-auth.)
          before: async (user, ctx) => {
            if (ctx?.path === OAUTH_CALLBACK_PATH && !user.emailVerified) {
              log.warn({ email: user.email }, 'social sign-up refused: the provider did not verify the e-mail');
              return false;
            }
            return undefined;
          },
          // Every account gets a role row (the spec's fallback role) the moment it exists.
          after: async (user) => {
            await deps.users.assignDefaultRole(user.id);
          },
        },
      },
    },
    plugins: [
      twoFactor({
        issuer: 'Parley',
        schema: { twoFactor: { modelName: 'twoFactors' } },
        totpOptions: { digits: 6, period: 30 },
        backupCodeOptions: { amount: 10, length: 10 },
      }),
      parleyAuthPlugin(),
      // Always present (with no provider when Google is not configured) so the API type is stable.
      genericOAuth({
        config: config.google
          ? [
              {
                providerId: GOOGLE_PROVIDER_ID,
                clientId: config.google.clientId,
                clientSecret: config.google.clientSecret,
                discoveryUrl: `${config.google.issuer.replace(/\/+$/u, '')}/.well-known/openid-configuration`,
                scopes: ['openid', 'email', 'profile'],
                pkce: true,
                // Only an id_token signed by the issuer's JWKS, for our client id and with the nonce
                // bound to this sign-in, identifies the user.
                requireIdTokenVerification: true,
                mapProfileToUser: profileFromProvider,
              },
            ]
          : [],
      }),
    ],
  } satisfies BetterAuthOptions;
  return betterAuth(options);
}

export type BetterAuth = ReturnType<typeof createBetterAuth>;
