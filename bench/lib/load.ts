/** HTTP load with autocannon (in the bench process; the server under test is a child process). */
import autocannon from 'autocannon';
import { num } from './stats';

export interface LoadOptions {
  url: string;
  connections: number;
  durationSeconds: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Per-request setup (a distinct body each time) and response hooks; see autocannon's `requests`. */
  requests?: autocannon.Request[];
  /** A fixed rate over all connections (requests per second) instead of as fast as possible. */
  overallRate?: number;
}

export interface LoadResult {
  /** Successful (2xx) responses per second over the whole run. */
  rps: number;
  /** Standard deviation of the per-second request counts. */
  rpsStddev: number;
  p50: number;
  p90: number;
  p99: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

/** One request given as the exact bytes to send, and what to do with its answer's status. */
export interface PrebuiltRequest {
  bytes: Buffer;
  onResponse?: (status: number) => void;
}

export interface PrebuiltLoadOptions {
  url: string;
  connections: number;
  durationSeconds: number;
  /** The request to send next (called once per request, in sending order). */
  next: () => PrebuiltRequest;
  /** A fixed rate over all connections (requests per second) instead of as fast as possible. */
  overallRate?: number;
}

/**
 * The bytes of an HTTP/1.1 request as autocannon writes them (request line, Host, keep-alive,
 * the headers, Content-Length, body); Host, Connection and Content-Length among `headers` are
 * replaced by those.
 */
export function rawRequest(url: string, method: string, path: string, headers: Record<string, string>, body: string): Buffer {
  const { host } = new URL(url);
  const payload = Buffer.from(body, 'utf8');
  const lines = [`${method} ${path} HTTP/1.1`, `Host: ${host}`, 'Connection: keep-alive'];
  for (const [name, value] of Object.entries(headers)) {
    if (!/^(host|connection|content-length)$/iu.test(name)) lines.push(`${name}: ${value}`);
  }
  lines.push(`Content-Length: ${payload.length}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), payload]);
}

/**
 * Load with a distinct, prebuilt request each time. autocannon's own way to vary requests
 * (`setupRequest`) runs its request builder for every request — about 14 µs of the load
 * generator's CPU each on this machine, as much as the rest of its work per request, taken from the
 * same two cores the server under test runs on — while a fixed request (as the hello-world
 * baseline uses) is built once and written as the same bytes again and again. Here each
 * connection's request iterator hands out prebuilt bytes instead: what the server receives is
 * byte for byte what `setupRequest` would have sent; only the generator's own cost changes.
 * (It reaches into autocannon's client — `requestIterator`, given to `setupClient` — whose shape is
 * pinned by the lock file; a test in bench/lib/load.test.ts guards it.)
 */
export async function loadPrebuilt(options: PrebuiltLoadOptions): Promise<LoadResult> {
  interface Iterator {
    currentRequest: { requestBuffer: Buffer; onResponse?: (status: number) => void };
    nextRequest: () => unknown;
  }
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.durationSeconds,
    timeout: 30,
    ...(options.overallRate ? { overallRate: options.overallRate } : {}),
    setupClient: (client: unknown) => {
      const iterator = (client as { requestIterator?: Iterator }).requestIterator;
      if (!iterator || typeof iterator.nextRequest !== 'function') throw new Error('autocannon changed: no client.requestIterator.nextRequest');
      const take = () => {
        const request = options.next();
        iterator.currentRequest = { requestBuffer: request.bytes, ...(request.onResponse ? { onResponse: request.onResponse } : {}) };
        return iterator.currentRequest;
      };
      take();
      iterator.nextRequest = take;
    },
  });
  return summarise(result);
}

export async function load(options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.durationSeconds,
    timeout: 30,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    ...(options.requests ? { requests: options.requests } : {}),
    ...(options.overallRate ? { overallRate: options.overallRate } : {}),
  });
  return summarise(result);
}

function summarise(result: autocannon.Result): LoadResult {
  return {
    rps: result['2xx'] / result.duration,
    rpsStddev: result.requests.stddev,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

/** "38.2 req/s (±3.1), p50 510 ms, p99 620 ms" */
export function describe(r: LoadResult): string {
  const failures = r.non2xx + r.errors;
  return `${num(r.rps)} req/s (±${num(r.rpsStddev)}/s), p50 ${num(r.p50)} ms, p99 ${num(r.p99)} ms${failures ? `, ${failures} failed` : ''}`;
}
