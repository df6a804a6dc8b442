/**
 * The only better-auth HTTP endpoint Parley exposes: the OAuth/OIDC redirect target (query
 * response mode). Everything else goes through auth.routes.ts so lockout, validation and the
 * spec's answers apply.
 */
import type { FastifyPluginAsync } from 'fastify';
import { AUTH_BASE_PATH, type BetterAuth } from './better-auth';
import { requestMeta } from './request-meta';

export const betterAuthCallbackRoutes: FastifyPluginAsync<{ auth: BetterAuth; publicUrl: string }> = async (app, { auth, publicUrl }) => {
  app.get(
    `${AUTH_BASE_PATH}/callback/:providerId`,
    // The state cookie, PKCE verifier and nonce (checked by better-auth) bind the callback to the
    // browser that started sign-in.
    { config: { access: 'public' }, schema: { hide: true } },
    async (request, reply) => {
      const { headers } = requestMeta(request);
      const response = await auth.handler(new Request(new URL(request.url, publicUrl), { method: 'GET', headers }));
      reply.status(response.status);
      response.headers.forEach((value, name) => {
        if (name !== 'set-cookie') reply.header(name, value);
      });
      const cookies = response.headers.getSetCookie();
      if (cookies.length) reply.header('set-cookie', cookies);
      return reply.send(await response.text());
    },
  );
};
