/**
 * Child processes for the bench: every child is tracked and killed when the bench exits, however
 * it exits, so no server outlives a run. Also free loopback ports and an HTTP probe.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { sleep } from './stats';

export const LOOPBACK = '127.0.0.1';

const live = new Set<ChildProcess>();

function killAll(): void {
  for (const child of live) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  live.clear();
}

process.on('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    killAll();
    process.exit(130);
  });
}

/** A port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, LOOPBACK, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface Child {
  readonly process: ChildProcess;
  /** Everything written to stdout and stderr so far (capped at the last 64 KB). */
  output(): string;
  /** Resolves with the exit code (or signal name) once the process has exited. */
  readonly exited: Promise<number | string>;
  /** Resolves with the time (performance.now()) a line matching `pattern` appeared on stdout/stderr. */
  waitForOutput(pattern: RegExp, timeoutMs: number): Promise<number>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the process is gone. */
  stop(graceMs?: number): Promise<void>;
}

export interface SpawnOptions {
  cwd: string;
  env?: Record<string, string | undefined>;
}

export function spawnNode(args: string[], options: SpawnOptions): Child {
  const child = spawn(process.execPath, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  let output = '';
  const watchers = new Set<{ pattern: RegExp; resolve: (at: number) => void }>();
  const onData = (chunk: Buffer) => {
    const at = performance.now();
    output = (output + chunk.toString('utf8')).slice(-65_536);
    for (const w of watchers) {
      if (w.pattern.test(output)) {
        watchers.delete(w);
        w.resolve(at);
      }
    }
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => {
      live.delete(child);
      resolve(code ?? signal ?? 'unknown');
    });
    child.once('error', () => {
      live.delete(child);
      resolve('spawn error');
    });
  });

  return {
    process: child,
    output: () => output,
    exited,
    waitForOutput(pattern, timeoutMs) {
      if (pattern.test(output)) return Promise.resolve(performance.now());
      return new Promise<number>((resolve, reject) => {
        const watcher = {
          pattern,
          resolve: (at: number) => {
            clearTimeout(timer);
            resolve(at);
          },
        };
        const timer = setTimeout(() => {
          watchers.delete(watcher);
          reject(new Error(`Timed out waiting for ${String(pattern)}; output:\n${output.slice(-2000)}`));
        }, timeoutMs);
        watchers.add(watcher);
        void exited.then((code) => {
          if (!watchers.delete(watcher)) return;
          clearTimeout(timer);
          reject(new Error(`Process exited (${code}) before ${String(pattern)}; output:\n${output.slice(-2000)}`));
        });
      });
    },
    async stop(graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** One GET; resolves with the status code, or undefined when the connection failed. */
export function httpStatus(url: string, timeoutMs = 2_000): Promise<number | undefined> {
  return new Promise((resolve) => {
    const request = http.get(url, { agent: false, timeout: timeoutMs }, (response) => {
      response.resume();
      response.once('end', () => resolve(response.statusCode));
      response.once('error', () => resolve(response.statusCode));
    });
    request.once('timeout', () => request.destroy());
    request.once('error', () => resolve(undefined));
  });
}

/**
 * Polls `url` every `intervalMs` until it answers 200; resolves with the time (performance.now())
 * the 200 arrived. Fails when `child` exits first or after `timeoutMs`.
 */
export async function waitFor200(url: string, child: Child, timeoutMs: number, intervalMs = 5): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  let exitedWith: number | string | undefined;
  void child.exited.then((code) => {
    exitedWith = code;
  });
  let last: number | undefined;
  while (performance.now() < deadline) {
    last = await httpStatus(url);
    if (last === 200) return performance.now();
    if (exitedWith !== undefined) throw new Error(`Server exited (${exitedWith}) before answering 200; output:\n${child.output().slice(-2000)}`);
    await sleep(intervalMs);
  }
  throw new Error(`No 200 from ${url} within ${timeoutMs} ms (last status ${last ?? 'none'}); output:\n${child.output().slice(-2000)}`);
}
