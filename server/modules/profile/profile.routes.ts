import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { changePasswordInput } from '../../../common/api/auth';
import {
  backupCodesResponse,
  idParams,
  notificationPreferences,
  okResponse,
  passwordInput,
  sessionsResponse,
  twoFactorCodeInput,
  twoFactorSetup,
  twoFactorStatusResponse,
  updateNotificationPreferencesInput,
  updateProfileInput,
} from '../../../common/api/me';
import { currentUser } from '../../../common/api/users';
import { requireUser } from '../../http/access';
import { forwardCookies, requestMeta } from '../auth';
import type { Caller, ProfileService } from './profile.service';

export interface ProfileRoutesOptions {
  profileService: ProfileService;
  /** Requests per minute per IP on the routes that check a password or a code. */
  rateLimitPerMinute: number;
}

function caller(request: FastifyRequest): Caller {
  const user = requireUser(request);
  return { id: user.id, email: user.email, sessionId: user.sessionId };
}

export const profileRoutes: FastifyPluginAsyncZod<ProfileRoutesOptions> = async (app, { profileService, rateLimitPerMinute }) => {
  const tags = ['me'];
  const signedIn = { access: 'signed-in' as const };
  const limited = { ...signedIn, rateLimit: { max: rateLimitPerMinute, timeWindow: 60_000 } };

  app.get(
    '/api/v1/me',
    {
      // Open while two-factor setup is required: the app reads who is signed in to show the setup.
      config: { ...signedIn, scope: 'any' as const, twoFactorSetup: true },
      schema: { tags, summary: 'The signed-in user with the profile fields', response: { 200: currentUser } },
    },
    async (request) => profileService.getMe(requireUser(request).id),
  );

  app.patch(
    '/api/v1/me/profile',
    {
      config: signedIn,
      schema: { tags, summary: 'Update my full name, avatar, phone and company', body: updateProfileInput, response: { 200: currentUser } },
    },
    async (request) => profileService.updateProfile(requireUser(request).id, request.body),
  );

  app.post(
    '/api/v1/me/password',
    {
      config: limited,
      schema: {
        tags,
        summary: 'Change my password (the current one is checked)',
        body: changePasswordInput,
        response: { 200: okResponse },
      },
    },
    async (request, reply) => {
      const { cookies } = await profileService.changePassword(caller(request), request.body, requestMeta(request));
      forwardCookies(reply, cookies);
      return { ok: true as const };
    },
  );

  app.get(
    '/api/v1/me/sessions',
    { config: signedIn, schema: { tags, summary: 'My live sessions; the current one is marked', response: { 200: sessionsResponse } } },
    async (request) => ({ sessions: await profileService.findSessions(caller(request)) }),
  );

  app.delete(
    '/api/v1/me/sessions/:id',
    { config: signedIn, schema: { tags, summary: 'Revoke one of my sessions', params: idParams } },
    async (request, reply) => {
      await profileService.revokeSession(caller(request), request.params.id);
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/v1/me/sessions/revoke-others',
    { config: signedIn, schema: { tags, summary: 'Revoke all my sessions except this one' } },
    async (request, reply) => {
      await profileService.revokeOtherSessions(caller(request));
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/v1/me/two-factor/enable',
    {
      config: { ...limited, twoFactorSetup: true },
      schema: {
        tags,
        summary: 'Start TOTP setup: secret URI, QR code and recovery codes (not active until confirmed)',
        body: passwordInput,
        response: { 200: twoFactorSetup },
      },
    },
    async (request) => profileService.enableTwoFactor(request.body.password, requestMeta(request)),
  );

  app.post(
    '/api/v1/me/two-factor/confirm',
    {
      config: { ...limited, twoFactorSetup: true },
      schema: { tags, summary: 'Turn two-factor on with a code from the authenticator app', body: twoFactorCodeInput, response: { 200: twoFactorStatusResponse } },
    },
    async (request, reply) => {
      const { result, cookies } = await profileService.confirmTwoFactor(caller(request), request.body.code, requestMeta(request));
      forwardCookies(reply, cookies);
      return result;
    },
  );

  app.post(
    '/api/v1/me/two-factor/disable',
    {
      config: limited,
      schema: { tags, summary: 'Turn two-factor off', body: passwordInput, response: { 200: twoFactorStatusResponse } },
    },
    async (request, reply) => {
      const { result, cookies } = await profileService.disableTwoFactor(caller(request), request.body.password, requestMeta(request));
      forwardCookies(reply, cookies);
      return result;
    },
  );

  app.post(
    '/api/v1/me/two-factor/backup-codes',
    {
      config: limited,
      schema: { tags, summary: 'Replace my recovery codes', body: passwordInput, response: { 200: backupCodesResponse } },
    },
    async (request) => ({ backupCodes: await profileService.regenerateBackupCodes(request.body.password, requestMeta(request)) }),
  );

  app.get(
    '/api/v1/me/notification-preferences',
    { config: signedIn, schema: { tags, summary: 'My notification switches', response: { 200: notificationPreferences } } },
    async (request) => profileService.getNotificationPreferences(requireUser(request).id),
  );

  app.put(
    '/api/v1/me/notification-preferences',
    {
      config: signedIn,
      schema: { tags, summary: 'Save my notification switches', body: notificationPreferences, response: { 200: notificationPreferences } },
    },
    async (request) => profileService.setNotificationPreferences(requireUser(request).id, request.body),
  );

  app.patch(
    '/api/v1/me/notification-preferences',
    {
      config: signedIn,
      schema: {
        tags,
        summary: 'Change some of my notification switches (the others stay as they are)',
        body: updateNotificationPreferencesInput,
        response: { 200: notificationPreferences },
      },
    },
    async (request) => profileService.updateNotificationPreferences(requireUser(request).id, request.body),
  );
};
