/**
 * The authentication API (server: server/modules/auth). Paths are relative to /api/v1/auth.
 *
 *   GET  /session                 -> sessionResponse                  (public)
 *   GET  /providers               -> providersResponse                (public)
 *   POST /sign-up                 signUpInput -> signUpResponse (201) (public)
 *   POST /sign-in                 signInInput -> signInResponse       (public)
 *          401 AUTH_ERROR "Invalid email or password. N attempt(s) remaining."
 *          429 RATE_LIMITED "Too many failed attempts. Please try again in N minute(s)."
 *          401 AUTH_ERROR with details.reason "email_not_verified" (a fresh link is sent)
 *   POST /two-factor/verify       twoFactorVerifyInput -> signInResponse
 *   POST /sign-out                -> 204
 *   POST /forgot-password         forgotPasswordInput -> { sent: true } (same answer for unknown e-mails)
 *   POST /reset-password/check    { token } -> { valid }
 *   POST /reset-password          resetPasswordInput -> { ok: true } | 410 GONE (invalid or expired link)
 *   POST /resend-verification     { email } -> { sent: true }
 *   GET  /verify-email?token=     -> 302 to /dashboard (signed in) or /login?error=verification
 *   GET  /social/google?redirectTo=/path -> 302 to the identity provider, which returns the browser
 *          to /api/auth/callback/google; that answers 302 to
 *            redirectTo                                  signed in
 *            /login?step=two-factor&redirectTo=<path>    two-factor is on: ask for the code, then
 *                                                        POST /two-factor/verify (as after sign-in)
 *            /login?error=google&error=<reason>          failed ("Google Sign In Failed")
 */
import { z } from 'zod';
import { currentUser } from './users';
import { emailSchema } from '../validation/auth';

export {
  signInInput,
  signUpInput,
  forgotPasswordInput,
  resetPasswordInput,
  changePasswordInput,
} from '../validation/auth';

export const AUTH_MESSAGES = {
  invalidCredentials: (remaining: number) => `Invalid email or password. ${remaining} attempt(s) remaining.`,
  locked: (minutes: number) => `Too many failed attempts. Please try again in ${minutes} minute(s).`,
  signInFailed: 'Sign in failed. Please check your credentials.',
  emailNotVerified: 'Please verify your email address before signing in. We have sent you a new link.',
  invalidResetLink: 'This password reset link is invalid or has expired.',
  invalidTwoFactorCode: 'Invalid verification code. Please try again.',
} as const;

export const sessionResponse = z.object({ user: currentUser.nullable() });
export type SessionResponse = z.infer<typeof sessionResponse>;

export const providersResponse = z.object({ google: z.boolean() });
export type ProvidersResponse = z.infer<typeof providersResponse>;

export const signUpResponse = z.object({ verificationSent: z.literal(true), email: z.string() });

export const signInResponse = z.union([
  z.object({ twoFactorRequired: z.literal(false), user: currentUser }),
  z.object({ twoFactorRequired: z.literal(true) }),
]);
export type SignInResponse = z.infer<typeof signInResponse>;

export const twoFactorVerifyInput = z.object({
  code: z
    .string()
    .trim()
    .min(6, { error: 'Enter the 6-digit code or a recovery code' })
    .max(32, { error: 'Enter the 6-digit code or a recovery code' }),
  /** "totp" for the authenticator app's code, "backup" for a recovery code. */
  kind: z.enum(['totp', 'backup']).default('totp'),
  trustDevice: z.boolean().default(false),
});

export const resetTokenInput = z.object({ token: z.string().min(1).max(200) });
export const resetCheckResponse = z.object({ valid: z.boolean() });

export const resendVerificationInput = z.object({ email: emailSchema });
export const sentResponse = z.object({ sent: z.literal(true) });

export const socialQuery = z.object({
  redirectTo: z
    .string()
    .max(2048)
    .regex(/^\/(?!\/)/u, 'redirectTo must be a path on this site')
    .optional(),
});
