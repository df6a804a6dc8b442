/**
 * Open-loop load at a steady rate: request i is sent at start + i / rate whether or not earlier
 * ones were answered (unlike autocannon's closed loop, where a slow server slows the sender down
 * and hides its own latency). Requests go over a small pool of keep-alive connections, as Meta
 * and a reverse proxy would send them.
 */
import http from 'node:http';
import { sleep } from './stats';

export interface SteadyRequest {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface SteadySample {
  seq: number;
  /** performance.now() when the request was handed to the socket. */
  sentAt: number;
  /** Date.now() at the same moment (to compare with times recorded elsewhere on this machine). */
  sentWall: number;
  /** How late the send was against its schedule (ms). */
  lateBy: number;
  /** Round trip to the end of the answer (ms); undefined if it failed. */
  roundTrip?: number;
  status?: number;
  error?: string;
  /** The answer's body, when `keepBody` was asked for. */
  body?: string;
}

export interface SteadyOptions {
  baseUrl: string;
  /** Requests per second. */
  rate: number;
  count: number;
  /** Keep-alive connections (default 16). */
  sockets?: number;
  make(seq: number): SteadyRequest;
  /** Called right after request `seq` was sent. */
  onSent?(sample: SteadySample): void;
  /** Keep each answer's body in its sample (e.g. an id the figure follows). */
  keepBody?: boolean;
}

function send(agent: http.Agent, baseUrl: string, request: SteadyRequest, sample: SteadySample, keepBody = false): Promise<void> {
  return new Promise((resolve) => {
    const url = new URL(request.path, baseUrl);
    const req = http.request(url, { method: request.method, agent, headers: request.headers }, (response) => {
      const chunks: Buffer[] = [];
      if (keepBody) response.on('data', (chunk: Buffer) => chunks.push(chunk));
      else response.resume();
      response.once('end', () => {
        if (keepBody) sample.body = Buffer.concat(chunks).toString('utf8');
        sample.roundTrip = performance.now() - sample.sentAt;
        sample.status = response.statusCode;
        resolve();
      });
    });
    req.once('error', (error) => {
      sample.error = error.message;
      resolve();
    });
    req.end(request.body);
  });
}

/** Sends `count` requests at `rate` per second; resolves with every sample once all were answered. */
export async function steadyLoad(options: SteadyOptions): Promise<SteadySample[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.sockets ?? 16 });
  const interval = 1000 / options.rate;
  const samples: SteadySample[] = [];
  const pending: Promise<void>[] = [];
  const start = performance.now() + 20;
  try {
    for (let seq = 0; seq < options.count; seq++) {
      const due = start + seq * interval;
      const wait = due - performance.now();
      // No busy-wait for the last millisecond: on a 2-core machine spinning takes CPU from the
      // server being measured. A timer is about ±1 ms; each sample records when it really left.
      if (wait > 0) await sleep(wait);
      const request = options.make(seq);
      const sentAt = performance.now();
      const sample: SteadySample = { seq, sentAt, sentWall: Date.now(), lateBy: sentAt - due };
      samples.push(sample);
      pending.push(send(agent, options.baseUrl, request, sample, options.keepBody));
      options.onSent?.(sample);
    }
    await Promise.all(pending);
  } finally {
    agent.destroy();
  }
  return samples;
}
