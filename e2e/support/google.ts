/**
 * The loopback identity provider that plays Google in the browser tests (started by
 * ./oidc-global-setup.ts) and the settings that point the server under test at it.
 */
export const GOOGLE_PROVIDER_PORT = Number(process.env.E2E_GOOGLE_PORT ?? 4790);

export const E2E_GOOGLE = {
  clientId: 'parley-e2e',
  clientSecret: 'parley-e2e-secret-not-used-anywhere-else',
  issuer: `http://127.0.0.1:${GOOGLE_PROVIDER_PORT}`,
} as const;

/** The server's GOOGLE_* environment for the e2e web server. */
export const E2E_GOOGLE_ENV = {
  GOOGLE_CLIENT_ID: E2E_GOOGLE.clientId,
  GOOGLE_CLIENT_SECRET: E2E_GOOGLE.clientSecret,
  GOOGLE_ISSUER: E2E_GOOGLE.issuer,
};

/** The Google account the provider offers on its sign-in page (new to Parley). */
export const GOOGLE_USER = {
  sub: 'e2e-google-user-1',
  email: 'gia.google@parley.test',
  emailVerified: true,
  name: 'Gia Google',
} as const;
