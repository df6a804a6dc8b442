import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireDataDirLock, controlUrlFor, DataDirInUseError, lockPath, readLock } from './data-dir-lock';

/** The pid of a process that has exited (so it is certainly not alive). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('data directory lock', () => {
  const dirs: string[] = [];
  const cleanups: (() => void)[] = [];
  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-lock-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const c of cleanups.splice(0)) c();
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });

  it('writes a lock readable only by its owner, with the pid and a control token, and removes it on release', () => {
    const dir = path.join(tempDir(), 'nested', 'data');
    const lock = acquireDataDirLock(dir);
    const file = lockPath(dir);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const info = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(info).toMatchObject({ pid: process.pid, controlToken: lock.info.controlToken });
    expect(String(info.controlToken).length).toBeGreaterThanOrEqual(40);

    lock.publish('http://127.0.0.1:4321');
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({ controlUrl: 'http://127.0.0.1:4321' });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);

    lock.release();
    expect(fs.existsSync(file)).toBe(false);
    lock.release(); // twice is harmless
  });

  it('refuses a directory held by another live process, naming it', () => {
    const dir = tempDir();
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    cleanups.push(() => holder.kill());
    fs.writeFileSync(lockPath(dir), JSON.stringify({ pid: holder.pid, startedAt: new Date().toISOString(), controlToken: 't' }));
    expect(readLock(dir)).toMatchObject({ pid: holder.pid });
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirInUseError);
    expect(() => acquireDataDirLock(dir)).toThrow(`is in use by another Parley process (pid ${holder.pid})`);
  });

  it('ignores and replaces a stale lock whose process is gone', () => {
    const dir = tempDir();
    const pid = deadPid();
    fs.writeFileSync(lockPath(dir), JSON.stringify({ pid, startedAt: new Date().toISOString(), controlToken: 'old' }));
    expect(readLock(dir)).toBeUndefined();
    const lock = acquireDataDirLock(dir);
    expect(JSON.parse(fs.readFileSync(lockPath(dir), 'utf8'))).toMatchObject({ pid: process.pid });
    lock.release();
  });

  it('ignores a lock file that is not a lock (empty or garbage)', () => {
    const dir = tempDir();
    fs.writeFileSync(lockPath(dir), '');
    expect(readLock(dir)).toBeUndefined();
    acquireDataDirLock(dir).release();
    fs.writeFileSync(lockPath(dir), '{"pid": "x"}');
    acquireDataDirLock(dir).release();
  });

  it('release leaves alone a lock that another process took over', () => {
    const dir = tempDir();
    const lock = acquireDataDirLock(dir);
    const other = { pid: deadPid(), startedAt: new Date().toISOString(), controlToken: 'theirs' };
    fs.writeFileSync(lockPath(dir), JSON.stringify(other));
    lock.release();
    expect(JSON.parse(fs.readFileSync(lockPath(dir), 'utf8'))).toEqual(other);
  });

  it('publishes a control URL the command line can reach, whatever HOST the server bound', () => {
    expect(controlUrlFor({ address: '127.0.0.1', port: 3000 })).toBe('http://127.0.0.1:3000');
    expect(controlUrlFor({ address: '0.0.0.0', port: 3000 })).toBe('http://127.0.0.1:3000');
    expect(controlUrlFor({ address: '::', port: 3000 })).toBe('http://127.0.0.1:3000');
    expect(controlUrlFor({ address: '::1', port: 8080 })).toBe('http://[::1]:8080');
    expect(controlUrlFor({ address: '192.168.1.20', port: 80 })).toBe('http://192.168.1.20:80');
  });
});
