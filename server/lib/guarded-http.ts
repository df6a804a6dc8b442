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
 */
import dns from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, buildConnector, request as undiciRequest } from 'undici';
import { checkOutboundUrl, EMPTY_ALLOWLIST, normaliseHost, refusalMessage, refusedRange, type OutboundAllowlist } from './outbound-address';

export interface ResolvedAddress {
  address: string;
  family: number;
}

export interface GuardedHttpOptions {
  allowlist?: OutboundAllowlist;
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
  const resolve = options.resolve ?? systemResolve;
  const defaultTimeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const defaultMaxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;

  /** Every address of the name, or a refusal naming the first refused one. */
  async function resolveChecked(hostname: string): Promise<ResolvedAddress[]> {
    const host = normaliseHost(hostname);
    const addresses = await resolve(host);
    if (addresses.length === 0) throw Object.assign(new Error(`No address for ${host}`), { code: 'ENOTFOUND' });
    if (allowlist.hosts.has(host)) return addresses;
    for (const { address } of addresses) {
      const range = refusedRange(address, allowlist);
      if (range) throw new GuardedHttpError(refusalMessage(address, range), 'refused');
    }
    return addresses;
  }

  // The socket's lookup: the addresses it connects to are the ones just checked.
  const lookup = ((hostname: string, lookupOptions: dns.LookupOptions, callback: (error: Error | null, address: string | dns.LookupAddress[], family?: number) => void) => {
    resolveChecked(hostname).then(
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
  }) as LookupFunction;

  const baseConnect = buildConnector({ lookup });
  const agent = new Agent({
    connect(connectOptions, callback) {
      // An IP literal is connected to without a lookup: check it here.
      const host = normaliseHost(connectOptions.hostname);
      if (isIP(host) && !allowlist.hosts.has(host)) {
        const range = refusedRange(host, allowlist);
        if (range) {
          callback(new GuardedHttpError(refusalMessage(host, range), 'refused'), null);
          return;
        }
      }
      baseConnect(connectOptions, callback);
    },
  });

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
        dispatcher: agent,
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
    checkUrl: (url) => checkOutboundUrl(url, allowlist),
    request,
    fetch: guardedFetch,
    close: () => agent.close(),
  };
}
