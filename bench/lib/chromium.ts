/**
 * Debian's Chromium (`/usr/bin/chromium`, as the browser tests use; the bench never downloads a
 * browser): its path, the flags every bench browser runs with, and a headless Chromium with the
 * DevTools protocol on a loopback port for tools that drive it themselves (Lighthouse).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import { freePort, LOOPBACK } from './process';
import { sleep } from './stats';
import { tempDir } from './tmp';

export const CHROMIUM = '/usr/bin/chromium';

/** Headless, and nothing in the background that would add requests or CPU to a measurement. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
] as const;

export function hasChromium(): boolean {
  return fs.existsSync(CHROMIUM);
}

const live = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of live) {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL'); // its own process group (detached)
    } catch {
      // gone already
    }
  }
});

export interface DebuggableChromium {
  /** The DevTools protocol port on 127.0.0.1. */
  port: number;
  /** The browser's version string (`Chrome/156.0…`). */
  version: string;
  stop(): Promise<void>;
}

/**
 * Starts Chromium headless with `--remote-debugging-port` and a fresh profile, and waits until
 * the protocol answers. `extraArgs` come after the bench's own flags.
 */
export async function launchDebuggable(extraArgs: readonly string[] = []): Promise<DebuggableChromium> {
  const port = await freePort();
  const profile = tempDir('chromium-profile');
  const child = spawn(CHROMIUM, [...CHROMIUM_FLAGS, `--remote-debugging-port=${port}`, `--user-data-dir=${profile}`, ...extraArgs, 'about:blank'], {
    detached: true, // its own process group: stop() ends the browser and its helper processes, nothing else
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  live.add(child);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-8_192);
  });
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      live.delete(child);
      resolve();
    });
    child.once('error', () => {
      live.delete(child);
      resolve();
    });
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
    const group = -child.pid;
    try {
      process.kill(group, 'SIGTERM');
    } catch {
      return;
    }
    const timer = setTimeout(() => {
      try {
        process.kill(group, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }, 10_000);
    await exited;
    clearTimeout(timer);
    fs.rmSync(profile, { recursive: true, force: true });
  };

  const deadline = performance.now() + 30_000;
  while (performance.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) break;
    try {
      const response = await fetch(`http://${LOOPBACK}:${port}/json/version`, { signal: AbortSignal.timeout(1_000) });
      if (response.ok) {
        const { Browser: version } = (await response.json()) as { Browser?: string };
        return { port, version: version ?? 'unknown', stop };
      }
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  await stop();
  throw new Error(`Chromium did not open its DevTools port ${port}; its output:\n${stderr.slice(-2_000)}`);
}
