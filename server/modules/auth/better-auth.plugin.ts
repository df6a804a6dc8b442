/**
 * Parley's additions to better-auth.
 *
 * E-mail verification: better-auth's is a stateless JWT that can be replayed until it expires;
 * Parley's verification links are random 32-byte tokens, stored hashed
 * (verification.storeIdentifier = "hashed"), consumed atomically on first use and valid for one
 * hour. Verifying signs the user in, which needs better-auth's cookie signing — hence an endpoint
 * of a plugin rather than a plain function.
 *
 * Two-factor after social sign-in: better-auth's two-factor plugin only challenges the password
 * sign-in paths, so a user with TOTP on would get in with Google alone. The OAuth callback hook
 * below turns that session into the same pending challenge the password sign-in gets.
 */
import type { BetterAuthPlugin } from 'better-auth';
import { APIError, createAuthEndpoint, createAuthMiddleware, isAPIError } from 'better-auth/api';
import { deleteSessionCookie, setSessionCookie } from 'better-auth/cookies';
import { generateRandomString } from 'better-auth/crypto';
import { z } from 'zod';

export const EMAIL_VERIFICATION_PREFIX = 'email-verification:';

/** Where a social sign-in goes when the user still has to enter a two-factor code. */
export function twoFactorStepPath(redirectTo: string): string {
  return `/login?step=two-factor&redirectTo=${encodeURIComponent(redirectTo)}`;
}

/** The path better-auth's OAuth callback endpoint is registered under (`ctx.path`). */
export const OAUTH_CALLBACK_PATH = '/callback/:id';

// The pending-challenge format of better-auth's two-factor plugin (1.7.25,
// dist/plugins/two-factor/index.mjs and verify-two-factor.mjs): a signed "two_factor" cookie
// naming a verification row that holds the user id, plus an attempts row beside it. Our
// google-sign-in test fails if an upgrade changes it.
const TWO_FACTOR_COOKIE = 'two_factor';
const TWO_FACTOR_CHALLENGE_SECONDS = 600;

function sitePath(location: string | null | undefined): string {
  return location && location.startsWith('/') && !location.startsWith('//') ? location : '/dashboard';
}

export function parleyAuthPlugin() {
  return {
    id: 'parley',
    endpoints: {
      parleyVerifyEmail: createAuthEndpoint(
        '/parley/verify-email',
        { method: 'POST', body: z.object({ token: z.string().min(1).max(200) }) },
        async (ctx) => {
          const adapter = ctx.context.internalAdapter;
          const row = await adapter.consumeVerificationValue(`${EMAIL_VERIFICATION_PREFIX}${ctx.body.token}`);
          if (!row || row.expiresAt.getTime() <= Date.now()) {
            throw new APIError('GONE', { message: 'This verification link is invalid or has expired.' });
          }
          const user = await adapter.findUserById(row.value);
          if (!user) throw new APIError('GONE', { message: 'This verification link is invalid or has expired.' });
          const verified = user.emailVerified ? user : await adapter.updateUser(user.id, { emailVerified: true });
          // The session hook refuses disabled accounts (better-auth.ts); the link then reads as invalid.
          const session = await adapter.createSession(user.id).catch(() => null);
          if (!session) throw new APIError('GONE', { message: 'This verification link is invalid or has expired.' });
          await setSessionCookie(ctx, { session, user: verified });
          return ctx.json({ userId: user.id });
        },
      ),
    },
    hooks: {
      after: [
        {
          matcher: (ctx) => ctx.path === OAUTH_CALLBACK_PATH,
          handler: createAuthMiddleware(async (ctx) => {
            const signedIn = ctx.context.newSession;
            if (!signedIn) return;
            const user = signedIn.user as typeof signedIn.user & { twoFactorEnabled?: boolean | null };
            if (!user.twoFactorEnabled) return;

            const returned = ctx.context.returned;
            const target = isAPIError(returned) ? new Headers(returned.headers).get('location') : null;

            // Undo the session the callback just created...
            deleteSessionCookie(ctx, true);
            await ctx.context.internalAdapter.deleteSession(signedIn.session.token);
            ctx.context.setNewSession(null);
            // ...and open the challenge /api/v1/auth/two-factor/verify completes.
            const identifier = `2fa-${generateRandomString(20)}`;
            const expiresAt = new Date(Date.now() + TWO_FACTOR_CHALLENGE_SECONDS * 1000);
            await ctx.context.internalAdapter.createVerificationValue({ value: user.id, identifier, expiresAt });
            await ctx.context.internalAdapter.createVerificationValue({ value: '0', identifier: `2fa-attempts-${identifier}`, expiresAt });
            const cookie = ctx.context.createAuthCookie(TWO_FACTOR_COOKIE, { maxAge: TWO_FACTOR_CHALLENGE_SECONDS });
            await ctx.setSignedCookie(cookie.name, identifier, ctx.context.secret, cookie.attributes);
            throw ctx.redirect(twoFactorStepPath(sitePath(target)));
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}
