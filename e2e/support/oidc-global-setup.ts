/**
 * Playwright global setup: starts the OpenID Connect provider that stands in for Google
 * (test/helpers/oidc-provider.ts) on a fixed loopback port, for the server the web server starts.
 * Returns the teardown.
 */
import type { FullConfig } from '@playwright/test';
import { startOidcProvider } from '../../test/helpers/oidc-provider';
import { E2E_GOOGLE, GOOGLE_PROVIDER_PORT, GOOGLE_USER } from './google';

export default async function globalSetup(config: FullConfig): Promise<() => Promise<void>> {
  const baseURL = config.projects[0]?.use.baseURL;
  if (!baseURL) throw new Error('playwright.config.ts must set use.baseURL');
  const provider = await startOidcProvider({
    port: GOOGLE_PROVIDER_PORT,
    clientId: E2E_GOOGLE.clientId,
    clientSecret: E2E_GOOGLE.clientSecret,
    redirectUris: [`${baseURL}/api/auth/callback/google`],
    accounts: [{ ...GOOGLE_USER }],
  });
  return () => provider.close();
}
