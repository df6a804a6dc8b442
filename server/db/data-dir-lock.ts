/**
 * PGlite has one writer: two processes opening the same data directory would corrupt it. The
 * server holds `parley.lock` in DATA_DIR while it runs; the file also tells the command line how to
 * reach the running server (its URL and a control token readable only by this OS user), so a
 * command can go through the server instead of opening the directory itself.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomToken } from '../lib/crypto';

export interface LockInfo {
  pid: number;
  startedAt: string;
  /** Set once the server listens. */
  controlUrl?: string;
  controlToken: string;
}

export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockInfo,
  ) {
    super(
      `The database in ${dataDir} is in use by another Parley process (pid ${holder.pid}). ` +
        'Stop it first, or run the command while it is up so it goes through the server.',
    );
    this.name = 'DataDirInUseError';
  }
}

/** Where the command line reaches a server listening on `address` (loopback for a wildcard). */
export function controlUrlFor(address: { address: string; port: number }): string {
  const host = address.address === '0.0.0.0' || address.address === '::' ? '127.0.0.1' : address.address;
  return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
}

export function lockPath(dataDir: string): string {
  return path.join(dataDir, 'parley.lock');
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The live holder of the lock, or undefined when there is none (a stale file is ignored). */
export function readLock(dataDir: string): LockInfo | undefined {
  try {
    const info = JSON.parse(fs.readFileSync(lockPath(dataDir), 'utf8')) as LockInfo;
    return typeof info.pid === 'number' && isAlive(info.pid) && info.pid !== process.pid ? info : undefined;
  } catch {
    return undefined;
  }
}

export interface DataDirLock {
  info: LockInfo;
  /** Records where the control endpoint listens. */
  publish(controlUrl: string): void;
  release(): void;
}

export function acquireDataDirLock(dataDir: string): DataDirLock {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = lockPath(dataDir);
  const info: LockInfo = { pid: process.pid, startedAt: new Date().toISOString(), controlToken: randomToken() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, JSON.stringify(info), { flag: 'wx', mode: 0o600 });
      let released = false;
      return {
        info,
        publish(controlUrl) {
          info.controlUrl = controlUrl;
          fs.writeFileSync(file, JSON.stringify(info), { mode: 0o600 });
        },
        release() {
          if (released) return;
          released = true;
          try {
            const current = JSON.parse(fs.readFileSync(file, 'utf8')) as LockInfo;
            if (current.pid === process.pid) fs.unlinkSync(file);
          } catch {
            // already gone
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readLock(dataDir);
      if (holder) throw new DataDirInUseError(dataDir, holder);
      fs.rmSync(file, { force: true }); // stale: its process is gone
    }
  }
  throw new Error(`Could not lock ${dataDir}`);
}
