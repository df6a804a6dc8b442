/**
 * The guarded outbound HTTP client: every server-side request to a URL a user typed (the API
 * channel's callback, an LLM base URL, and any webhook or automation call to come) goes through
 * it, so such a URL cannot reach this server, its network or a cloud metadata service (SSRF).
 * Operator-configured endpoints (the Graph API, the OIDC issuer) keep `./http-client.ts`.
 *
 * - http and https only.
 * - The address is checked where the connection is made: undici's connector resolves the name
 *   (every address DNS returns), refuses the connection if any of them is refused
 *   (`./outbound-address.ts`), and hands exactly those addresses to the socket — there is no
 *   second lookup between the check and the connect, so DNS rebinding has no window. IP literals
 *   (which the socket would not look up) are checked in the connector too. A pooled keep-alive
 *   connection was checked when it was opened.
 * - Redirects are never followed: a 3xx is returned as the answer (docs/DECISIONS.md).
 * - Each request has a total time limit (connect to last byte) and a cap on the answer's size.
 * - `OUTBOUND_ALLOWED_HOSTS` admits named private hosts (a self-hosted LLM, n8n on the LAN).
 * - `TrustedOrigins` admits exactly the origins (scheme, host and port) of services an
 *   administrator configured in the app (the n8n instance): their loopback or private addresses are
 *   allowed — other ports of the same host, and every other private host, are still refused; the
 *   metadata service and link-local ranges never are (`refusedRangeForConfiguredHost`).
 */
import dns from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, buildConnector, request as undiciRequest } from 'undici';
import {
  checkOutboundUrl,
  EMPTY_ALLOWLIST,
  normaliseHost,
  refusalMessage,
  refusedRange,
  refusedRangeForConfiguredHost,
  type OutboundAllowlist,
} from './outbound-address';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** `http://host:port` with the default port spelt out and the host normalised (no brackets, lower case). */
function originKey(protocol: string, hostname: string, port: string | number | undefined): string {
  const scheme = protocol.replace(/:$/u, '').toLowerCase();
  const effectivePort = port === undefined || port === '' ? (scheme === 'https' ? 443 : 80) : Number(port);
  return `${scheme}://${normaliseHost(hostname)}:${effectivePort}`;
}

/**
 * The origins administrators configured as services Parley calls (today one: the n8n instance),
 * each under its owner's name so the owner replaces its own entry. Requests to them go through a
 * connection pool of their own, which is closed whenever an origin is removed or replaced: no
 * keep-alive connection outlives the trust it was opened under.
 */
export class TrustedOrigins {
  readonly #byOwner = new Map<string, string>();
  readonly #listeners = new Set<() => void>();

  /** Admits `url`'s origin for `owner` (replacing the owner's previous one); null removes it. */
  set(owner: string, url: string | URL | null): void {
    const before = this.#byOwner.get(owner);
    if (url === null) {
      this.#byOwner.delete(owner);
    } else {
      const parsed = typeof url === 'string' ? new URL(url) : url;
      this.#byOwner.set(owner, originKey(parsed.protocol, parsed.hostname, parsed.port));
    }
    if (before !== undefined && before !== this.#byOwner.get(owner)) for (const listener of this.#listeners) listener();
  }

  /** Called when an admitted origin is removed or replaced. */
  onRevoke(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  admits(protocol: string, hostname: string, port: string | number | undefined): boolean {
    if (this.#byOwner.size === 0) return false;
    const key = originKey(protocol, hostname, port);
    for (const origin of this.#byOwner.values()) if (origin === key) return true;
    return false;
  }

  admitsUrl(url: URL): boolean {
    return this.admits(url.protocol, url.hostname, url.port);
  }
}

export interface GuardedHttpOptions {
  allowlist?: OutboundAllowlist;
  /** Origins admitted on private addresses because an administrator configured them (the n8n instance). */
  trustedOrigins?: TrustedOrigins;
  /** Name resolution; every address it returns is checked (default: the system resolver, all addresses). */
  resolve?: (hostname: string) => Promise<ResolvedAddress[]>;
  /** Default total time per request, connect to last byte (default 30 s). */
  timeoutMs?: number;
  /** Default cap on an answer's body (default 1 MiB). */
  maxBodyBytes?: number;
}

export interface GuardedRequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** The caller gives up. */
  signal?: AbortSignal;
  timeoutMs?: number;
  maxBodyBytes?: number;
  /** What a longer answer does: fail with `too_large` (default), or keep the first `maxBodyBytes`. */
  oversize?: 'error' | 'truncate';
}

export interface GuardedResponse {
  status: number;
  headers: Headers;
  body: Buffer;
  /** The answer was longer than `maxBodyBytes` and was cut (only with `oversize: 'truncate'`). */
  truncated: boolean;
}

export type GuardedHttpErrorKind = 'refused' | 'timeout' | 'aborted' | 'too_large' | 'network';

/** Why no (whole) answer came. `refused` messages are meant for the person who entered the URL. */
export class GuardedHttpError extends Error {
  constructor(
    message: string,
    readonly kind: GuardedHttpErrorKind,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'GuardedHttpError';
  }

  /** For `network`: ECONNREFUSED, ECONNRESET…, or the message. */
  get reason(): string {
    let cause: unknown = this.cause;
    while (cause instanceof Error) {
      const code = (cause as NodeJS.ErrnoException).code;
      if (typeof code === 'string') return code;
      if (!(cause.cause instanceof Error)) return cause.message;
      cause = cause.cause;
    }
    return this.message;
  }
}

export interface GuardedHttp {
  /** The input-time check for a URL a user saves: the reason it is refused, or null. */
  checkUrl(url: string | URL): string | null;
  request(url: string | URL, options?: GuardedRequestOptions): Promise<GuardedResponse>;
  /** The same client as a WHATWG `fetch` (for SDKs that take one: the AI SDK providers). Never follows redirects. */
  fetch: typeof globalThis.fetch;
  close(): Promise<void>;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

const systemResolve = (hostname: string): Promise<ResolvedAddress[]> => dns.promises.lookup(hostname, { all: true, verbatim: true });

function findRefusal(error: unknown): GuardedHttpError | null {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if (e instanceof GuardedHttpError) return e;
  }
  return null;
}

export function createGuardedHttp(options: GuardedHttpOptions = {}): GuardedHttp {
  const allowlist = options.allowlist ?? EMPTY_ALLOWLIST;
  const trustedOrigins = options.trustedOrigins;
  const resolve = options.resolve ?? systemResolve;
  const defaultTimeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const defaultMaxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;

  /** Every address of the name, or a refusal naming the first refused one. */
  async function resolveChecked(hostname: string, trusted: boolean): Promise<ResolvedAddress[]> {
    const host = normaliseHost(hostname);
    const addresses = await resolve(host);
    if (addresses.length === 0) throw Object.assign(new Error(`No address for ${host}`), { code: 'ENOTFOUND' });
    if (allowlist.hosts.has(host)) return addresses;
    for (const { address } of addresses) {
      const range = trusted ? refusedRangeForConfiguredHost(address) : refusedRange(address, allowlist);
      if (range) throw new GuardedHttpError(refusalMessage(address, range), 'refused');
    }
    return addresses;
  }

  // The socket's lookup: the addresses it connects to are the ones just checked.
  const checkedLookup = (trusted: boolean): LookupFunction =>
    ((hostname: string, lookupOptions: dns.LookupOptions, callback: (error: Error | null, address: string | dns.LookupAddress[], family?: number) => void) => {
      resolveChecked(hostname, trusted).then(
        (addresses) => {
          const family = lookupOptions.family === 'IPv4' ? 4 : lookupOptions.family === 'IPv6' ? 6 : lookupOptions.family;
          const usable = family ? addresses.filter((a) => a.family === family) : addresses;
          if (usable.length === 0) {
            callback(Object.assign(new Error(`No IPv${family} address for ${hostname}`), { code: 'ENOTFOUND' }), '');
          } else if (lookupOptions.all) {
            callback(null, usable);
          } else {
            callback(null, usable[0]!.address, usable[0]!.family);
          }
        },
        (error: Error) => callback(error, ''),
      );
    });

  const baseConnect = buildConnector({ lookup: checkedLookup(false) });
  // The configured services' origins: a connector of their own, checked with the relaxed policy.
  const trustedConnect = buildConnector({ lookup: checkedLookup(true) });
  const connectVia = (mayTrust: boolean): buildConnector.connector =>
    function connect(connectOptions, callback) {
      // Judged again at connect time: the origin may have been removed since the request was queued.
      const trusted = mayTrust && (trustedOrigins?.admits(connectOptions.protocol, connectOptions.hostname, connectOptions.port) ?? false);
      // An IP literal is connected to without a lookup: check it here.
      const host = normaliseHost(connectOptions.hostname);
      if (isIP(host) && !allowlist.hosts.has(host)) {
        const range = trusted ? refusedRangeForConfiguredHost(host) : refusedRange(host, allowlist);
        if (range) {
          callback(new GuardedHttpError(refusalMessage(host, range), 'refused'), null);
          return;
        }
      }
      (trusted ? trustedConnect : baseConnect)(connectOptions, callback);
    };
  const agent = new Agent({ connect: connectVia(false) });
  // Requests to an admitted origin use a pool of their own, replaced (the old one closed once its
  // requests are done) when an origin is revoked: a pooled connection never outlives its trust.
  let trustedAgent = new Agent({ connect: connectVia(true) });
  const closing = new Set<Promise<void>>();
  const stopListening = trustedOrigins?.onRevoke(() => {
    const old = trustedAgent;
    trustedAgent = new Agent({ connect: connectVia(true) });
    const closed = old.close().finally(() => closing.delete(closed));
    closing.add(closed);
  });

  function checkUrl(input: string | URL): string | null {
    let url: URL;
    try {
      url = typeof input === 'string' ? new URL(input) : input;
    } catch {
      return 'Not a valid URL';
    }
    if (trustedOrigins?.admitsUrl(url) && (url.protocol === 'http:' || url.protocol === 'https:')) {
      const host = normaliseHost(url.hostname);
      const range = isIP(host) ? refusedRangeForConfiguredHost(host) : null;
      return range ? refusalMessage(host, range) : null;
    }
    return checkOutboundUrl(url, allowlist);
  }

  async function request(input: string | URL, requestOptions: GuardedRequestOptions = {}): Promise<GuardedResponse> {
    let url: URL;
    try {
      url = typeof input === 'string' ? new URL(input) : input;
    } catch (error) {
      throw new GuardedHttpError('Not a valid URL', 'refused', { cause: error });
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new GuardedHttpError('Refused: only http and https URLs are allowed', 'refused');
    const timeoutMs = requestOptions.timeoutMs ?? defaultTimeoutMs;
    const maxBody = requestOptions.maxBodyBytes ?? defaultMaxBody;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = requestOptions.signal ? AbortSignal.any([requestOptions.signal, timeout]) : timeout;
    try {
      // No `maxRedirections`: undici's request does not follow redirects.
      const response = await undiciRequest(url, {
        method: requestOptions.method ?? 'GET',
        headers: requestOptions.headers,
        body: requestOptions.body,
        signal,
        dispatcher: trustedOrigins?.admitsUrl(url) ? trustedAgent : agent,
      });
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      for await (const chunk of response.body as AsyncIterable<Buffer>) {
        if (size + chunk.length > maxBody) {
          if (requestOptions.oversize !== 'truncate') throw new GuardedHttpError(`The answer is larger than ${maxBody} bytes`, 'too_large');
          chunks.push(chunk.subarray(0, maxBody - size));
          truncated = true;
          break; // ends (destroys) the body stream
        }
        chunks.push(chunk);
        size += chunk.length;
      }
      const headers = new Headers();
      for (const [name, value] of Object.entries(response.headers)) {
        if (value === undefined) continue;
        for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
      }
      return { status: response.statusCode, headers, body: Buffer.concat(chunks), truncated };
    } catch (error) {
      const refusal = findRefusal(error);
      if (refusal) throw refusal;
      if (requestOptions.signal?.aborted) throw new GuardedHttpError('The request was abandoned', 'aborted', { cause: error });
      if (timeout.aborted) throw new GuardedHttpError(`No answer within ${timeoutMs} ms`, 'timeout', { cause: error });
      const message = error instanceof Error ? error.message : String(error);
      throw new GuardedHttpError(`The request failed: ${message}`, 'network', { cause: error });
    }
  }

  const guardedFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    // Request normalises every form of input, headers and body the WHATWG fetch accepts.
    const req = new Request(input, init);
    const body = req.body ? Buffer.from(await req.arrayBuffer()) : undefined;
    const headers: Record<string, string> = {};
    req.headers.forEach((value, name) => (headers[name] = value));
    const result = await request(req.url, {
      method: req.method as GuardedRequestOptions['method'],
      headers,
      body,
      signal: req.signal,
    });
    return new Response(NULL_BODY_STATUSES.has(result.status) ? null : new Uint8Array(result.body), { status: result.status, headers: result.headers });
  };

  return {
    checkUrl: (url) => checkUrl(url),
    request,
    fetch: guardedFetch,
    async close() {
      stopListening?.();
      await Promise.all([agent.close(), trustedAgent.close(), ...closing]);
    },
  };
}
