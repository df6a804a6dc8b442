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
  });
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
