/**
 * Fakes of the outside world (callback server, OpenAI-compatible server) listen on loopback, which
 * the guarded client (server/lib/guarded-http.ts) refuses by default. Tests that use them allow it
 * explicitly, as an operator would allow a LAN host; the SSRF tests run with the default.
 */
import { createGuardedHttp } from '../../server/lib/guarded-http';
import { parseOutboundAllowlist } from '../../server/lib/outbound-address';

/** For a test app's `env`. */
export const ALLOW_LOOPBACK_FAKES = { OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' } as const;

/** The guarded fetch the app gives LLM providers, with loopback allowed: for engines built directly in unit tests. */
export const loopbackFetch = createGuardedHttp({ allowlist: parseOutboundAllowlist(ALLOW_LOOPBACK_FAKES.OUTBOUND_ALLOWED_HOSTS) }).fetch;
