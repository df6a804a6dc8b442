import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  forgotPasswordInput,
  providersResponse,
  resendVerificationInput,
  resetCheckResponse,
  resetPasswordInput,
  resetTokenInput,
  sentResponse,
  sessionResponse,
  signInInput,
  signInResponse,
  signUpInput,
  signUpResponse,
  socialQuery,
  twoFactorVerifyInput,
} from '../../../common/api/auth';
import { z } from 'zod';
import type { AuthService } from './auth.service';
import { forwardCookies, requestMeta } from './request-meta';

export interface AuthRoutesOptions {
  authService: AuthService;
  /** Requests per minute per IP on each auth endpoint. */
  rateLimitPerMinute: number;
}

export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (app, { authService, rateLimitPerMinute }) => {
  const limited = { rateLimit: { max: rateLimitPerMinute, timeWindow: 60_000 } };
  const tags = ['auth'];

  app.get(
    '/api/v1/auth/session',
    { config: { access: 'public' }, schema: { tags, summary: 'The signed-in user, or null', response: { 200: sessionResponse } } },
    async (request) => ({ user: request.user ? await authService.getCurrentUser(request.user.id) : null }),
  );

  app.get(
    '/api/v1/auth/providers',
    { config: { access: 'public' }, schema: { tags, summary: 'Which social sign-in buttons to show', response: { 200: providersResponse } } },
    async () => ({ google: authService.googleEnabled }),
  );

  app.post(
    '/api/v1/auth/sign-up',
    {
      config: { access: 'public', ...limited },
      schema: { tags, summary: 'Create an account and send a verification e-mail', body: signUpInput, response: { 201: signUpResponse } },
    },
    async (request, reply) => {
      await authService.signUp(request.body);
      return reply.status(201).send({ verificationSent: true, email: request.body.email });
    },
  );

  app.post(
    '/api/v1/auth/sign-in',
    {
      config: { access: 'public', ...limited },
      schema: { tags, summary: 'Sign in with e-mail and password (lockout applies)', body: signInInput, response: { 200: signInResponse } },
    },
    async (request, reply) => {
      const { result, cookies } = await authService.signIn(request.body, requestMeta(request));
      forwardCookies(reply, cookies);
      return result;
    },
  );

  app.post(
    '/api/v1/auth/two-factor/verify',
    {
      config: { access: 'public', ...limited },
      schema: { tags, summary: 'Second step of sign-in: TOTP or recovery code', body: twoFactorVerifyInput, response: { 200: signInResponse } },
    },
    async (request, reply) => {
      const { result, cookies } = await authService.verifyTwoFactor(request.body, requestMeta(request));
      forwardCookies(reply, cookies);
      return result;
    },
  );

  app.post(
    '/api/v1/auth/sign-out',
    { config: { access: 'public', ...limited }, schema: { tags, summary: 'Sign out and revoke this session' } },
    async (request, reply) => {
      const { cookies } = await authService.signOut(requestMeta(request));
      forwardCookies(reply, cookies);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/v1/auth/forgot-password',
    {
      config: { access: 'public', ...limited },
      schema: { tags, summary: 'E-mail a reset link (same answer for unknown addresses)', body: forgotPasswordInput, response: { 200: sentResponse } },
    },
    async (request) => {
      await authService.requestPasswordReset(request.body.email);
      return { sent: true as const };
    },
  );

  app.post(
    '/api/v1/auth/reset-password/check',
    {
      config: { access: 'public', ...limited },
      schema: { tags, summary: 'Whether a reset link is still usable', body: resetTokenInput, response: { 200: resetCheckResponse } },
    },
    async (request) => ({ valid: await authService.isResetTokenValid(request.body.token) }),
  );

  app.post(
    '/api/v1/auth/reset-password',
    {
      config: { access: 'public', ...limited },
      schema: { tags, summary: 'Set a new password with a reset link', body: resetPasswordInput, response: { 200: z.object({ ok: z.literal(true) }) } },
    },
    async (request) => {
      await authService.resetPassword(request.body.token, request.body.password, requestMeta(request));
      return { ok: true as const };
    },
  );

  app.post(
    '/api/v1/auth/resend-verification',
    {
      config: { access: 'public', ...limited },
      schema: { tags, summary: 'Send a new verification link', body: resendVerificationInput, response: { 200: sentResponse } },
    },
    async (request) => {
      await authService.resendVerification(request.body.email);
      return { sent: true as const };
    },
  );

  app.get(
    '/api/v1/auth/verify-email',
    {
      config: { access: 'public', ...limited },
      schema: { tags, summary: 'Target of the verification link: verifies, signs in, redirects', querystring: z.object({ token: z.string().min(1).max(200) }) },
    },
    async (request, reply) => {
      const { result, cookies } = await authService.verifyEmail(request.query.token, requestMeta(request));
      forwardCookies(reply, cookies);
      return reply.redirect(result ? '/dashboard?verified=1' : '/login?error=verification', 302);
    },
  );

  app.get(
    '/api/v1/auth/social/google',
    {
      config: { access: 'public', ...limited },
      schema: { tags, summary: 'Start Google sign-in (OpenID Connect, PKCE)', querystring: socialQuery },
    },
    async (request, reply) => {
      const { result: url, cookies } = await authService.startGoogleSignIn(
        request.query.redirectTo ?? '/dashboard',
        '/login?error=google',
        requestMeta(request),
      );
      forwardCookies(reply, cookies);
      return reply.redirect(url, 302);
    },
  );
};
