/**
 * A real OpenID Connect provider on loopback (oidc-provider 9), standing in for Google in tests:
 * discovery, authorization code flow with PKCE required, RS256 id_tokens carrying the nonce and
 * the e-mail claims, JWKS, userinfo. Its sign-in page lists the accounts the test registered
 * ("Continue as <email>" buttons) so a test or a browser picks who signs in.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Grant, type KoaContextWithOIDC } from 'oidc-provider';

export interface OidcAccount {
  /** The provider's subject identifier (Google's stable user id). */
  sub: string;
  email: string;
  emailVerified: boolean;
  name: string;
}

export interface StartOidcProviderOptions {
  /** Where the provider may send the browser back, e.g. `${PUBLIC_URL}/api/auth/callback/google`. */
  redirectUris: string[];
  /** 0 (default) picks a free port. */
  port?: number;
  clientId?: string;
  clientSecret?: string;
  accounts?: OidcAccount[];
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** GOOGLE_* settings that point Parley at this provider. */
  env: { GOOGLE_CLIENT_ID: string; GOOGLE_CLIENT_SECRET: string; GOOGLE_ISSUER: string };
  addAccount(account: OidcAccount): void;
  close(): Promise<void>;
}

const SCOPES = 'openid email profile';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/gu, (c) => `&#${c.charCodeAt(0)};`);
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function signingKey(): Record<string, unknown> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...privateKey.export({ format: 'jwk' }), kid: randomBytes(8).toString('hex'), alg: 'RS256', use: 'sig' };
}

export async function startOidcProvider(options: StartOidcProviderOptions): Promise<TestOidcProvider> {
  const clientId = options.clientId ?? 'parley-test-client';
  const clientSecret = options.clientSecret ?? randomBytes(24).toString('hex');
  const accounts = new Map<string, OidcAccount>();
  for (const account of options.accounts ?? []) accounts.set(account.sub, account);

  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;

  const provider: Provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    findAccount: (_ctx, id) => {
      const account = accounts.get(id);
      if (!account) return undefined;
      return {
        accountId: account.sub,
        claims: () => ({ sub: account.sub, email: account.email, email_verified: account.emailVerified, name: account.name }),
      };
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // Like Google: the id_token itself carries the e-mail claims.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    // A first-party client: consent is implied, so only the login step is interactive.
    loadExistingGrant: async (ctx: KoaContextWithOIDC): Promise<Grant | undefined> => {
      const accountId = ctx.oidc.session?.accountId;
      const clientId = ctx.oidc.client?.clientId;
      if (!accountId || !clientId) return undefined;
      const grant = new provider.Grant({ accountId, clientId });
      grant.addOIDCScope(SCOPES);
      await grant.save();
      return grant;
    },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    jwks: { keys: [signingKey()] },
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600 },
    renderError: (ctx, out) => {
      ctx.type = 'json';
      ctx.body = out;
    },
  });
  const handle = provider.callback();

  function loginPage(uid: string): string {
    const buttons = [...accounts.values()]
      .map((a) => `<button type="submit" name="account" value="${escapeHtml(a.sub)}">Continue as ${escapeHtml(a.email)}</button>`)
      .join('\n');
    return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign in - Test identity provider</title></head>
<body><main><h1>Choose an account</h1>
<form method="post" action="/interaction/${uid}/login">${buttons}</form>
<form method="post" action="/interaction/${uid}/abort"><button type="submit">Cancel</button></form>
</main></body></html>`;
  }

  async function interaction(req: IncomingMessage, res: ServerResponse, uid: string, action: string | undefined): Promise<void> {
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid) throw new Error('interaction mismatch');
    if (action === undefined && req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(loginPage(uid));
      return;
    }
    if (action === '/login' && req.method === 'POST') {
      const sub = (await readForm(req)).get('account') ?? '';
      if (!accounts.has(sub)) {
        res.writeHead(400, { 'content-type': 'text/plain' });
        res.end('unknown account');
        return;
      }
      await provider.interactionFinished(req, res, { login: { accountId: sub } }, { mergeWithLastSubmission: false });
      return;
    }
    if (action === '/abort' && req.method === 'POST') {
      await provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'The user cancelled the sign-in' },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    res.writeHead(405).end();
  }

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', issuer).pathname;
    const match = /^\/interaction\/([\w-]+)(\/login|\/abort)?$/u.exec(path);
    const work = match ? interaction(req, res, match[1]!, match[2]) : handle(req, res);
    work.catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(error instanceof Error ? error.message : 'error');
    });
  });

  return {
    issuer,
    clientId,
    clientSecret,
    env: { GOOGLE_CLIENT_ID: clientId, GOOGLE_CLIENT_SECRET: clientSecret, GOOGLE_ISSUER: issuer },
    addAccount(account) {
      accounts.set(account.sub, account);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
