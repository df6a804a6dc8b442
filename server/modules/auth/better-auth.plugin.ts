/**
 * Parley's additions to better-auth. E-mail verification in better-auth is a stateless JWT that
 * can be replayed until it expires; Parley's verification links are random 32-byte tokens, stored
 * hashed (verification.storeIdentifier = "hashed"), consumed atomically on first use and valid for
 * one hour. Verifying signs the user in, which needs better-auth's cookie signing — hence an
 * endpoint of a plugin rather than a plain function.
 */
import type { BetterAuthPlugin } from 'better-auth';
import { APIError, createAuthEndpoint } from 'better-auth/api';
import { setSessionCookie } from 'better-auth/cookies';
import { z } from 'zod';

export const EMAIL_VERIFICATION_PREFIX = 'email-verification:';

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
          const session = await adapter.createSession(user.id);
          await setSessionCookie(ctx, { session, user: verified });
          return ctx.json({ userId: user.id });
        },
      ),
    },
  } satisfies BetterAuthPlugin;
}
