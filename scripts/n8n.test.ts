import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureN8n, isN8nInstalled, n8nBinary, n8nInstallDir } from './n8n.mjs';

/** Stands in for `npm install`: writes the binary n8n's package would, after a while. */
function fakeInstall(calls: string[], ms = 300) {
  return async (staging: string) => {
    calls.push(staging);
    const pkg = JSON.parse(fs.readFileSync(path.join(staging, 'package.json'), 'utf8')) as { overrides: Record<string, string>; dependencies: Record<string, string> };
    expect(pkg.overrides).toEqual({ xlsx: '0.18.5', 'isolated-vm': '5.0.4' });
    await new Promise((resolve) => setTimeout(resolve, ms));
    fs.mkdirSync(path.join(staging, 'node_modules', '.bin'), { recursive: true });
    fs.writeFileSync(path.join(staging, 'node_modules', '.bin', 'n8n'), '#!/bin/sh\n');
  };
}

describe('the n8n install cache (scripts/n8n.mjs)', () => {
  let cache: string;
  const saved = process.env.PARLEY_N8N_CACHE;
  beforeEach(() => {
    cache = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-n8n-cache-'));
    process.env.PARLEY_N8N_CACHE = cache;
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.PARLEY_N8N_CACHE;
    else process.env.PARLEY_N8N_CACHE = saved;
    fs.rmSync(cache, { recursive: true, force: true });
  });

  it('installs once outside the repository, even when two callers ask at once (the lock is a folder, so processes share it)', async () => {
    const calls: string[] = [];
    const log = () => {};
    const [a, b] = await Promise.all([ensureN8n({ version: '0.0.1', log, install: fakeInstall(calls) }), ensureN8n({ version: '0.0.1', log, install: fakeInstall(calls) })]);
    expect(calls).toHaveLength(1);
    expect(a).toBe(n8nBinary('0.0.1'));
    expect(b).toBe(a);
    expect(a.startsWith(cache)).toBe(true);
    expect(isN8nInstalled('0.0.1')).toBe(true);
    // Installed: no install at all the next time; no staging folder or lock is left.
    expect(await ensureN8n({ version: '0.0.1', log, install: fakeInstall(calls) })).toBe(a);
    expect(calls).toHaveLength(1);
    expect(fs.readdirSync(cache)).toEqual(['0.0.1']);
  });

  it('a failed install leaves nothing behind, and a dead process’s lock is taken over', async () => {
    const log = () => {};
    await expect(ensureN8n({ version: '0.0.2', log, install: () => Promise.reject(new Error('npm failed')) })).rejects.toThrow('npm failed');
    expect(fs.readdirSync(cache)).toEqual([]);
    expect(fs.existsSync(n8nInstallDir('0.0.2'))).toBe(false);

    // A lock held by a process that no longer exists.
    fs.mkdirSync(path.join(cache, '0.0.2.lock'));
    fs.writeFileSync(path.join(cache, '0.0.2.lock', 'pid'), '2147483646');
    const calls: string[] = [];
    expect(await ensureN8n({ version: '0.0.2', log, install: fakeInstall(calls, 10) })).toBe(n8nBinary('0.0.2'));
    expect(calls).toHaveLength(1);
  });
});
