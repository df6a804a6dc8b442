/**
 * The command line and the embedded data directory, as an operator uses them: real processes on a
 * temporary DATA_DIR (seeded with the migrated test snapshot to skip initdb). Few spawns, generous
 * timeouts, every child killed afterwards.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProcessResult, parleyEntry, runNode, startParleyServer } from '../../test/helpers/processes';
import { SNAPSHOT_FILE } from '../../test/helpers/snapshot';
import { lockPath } from '../db/data-dir-lock';

const ROOT = path.resolve(import.meta.dirname, '../..');
const PASSWORD = 'Corr3ct!Horse#Battery';

type Result = ProcessResult;

function baseEnv(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...extra };
  return env;
}

/** `npm run parley -- …`, without npm's start-up (the build, or the sources through tsx). */
function cli(dataDir: string, args: string[]): Promise<Result> {
  return run([...parleyEntry('cli'), ...args], baseEnv(dataDir));
}

function run(args: string[], env: NodeJS.ProcessEnv): Promise<Result> {
  return runNode(args, { cwd: ROOT, env });
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A running `server/main.ts`; resolves once it printed that it is running. */
function startServer(dataDir: string, port: number): Promise<{ child: ChildProcess; output: () => string }> {
  return startParleyServer({ cwd: ROOT, env: baseEnv(dataDir, { PORT: String(port), HOST: '127.0.0.1', WEB_DIST_DIR: path.join(dataDir, 'no-web-build') }) });
}

/** Signs in over real HTTP, CSRF cookie and header included; returns the status. */
async function signInOverHttp(port: number, email: string, password: string): Promise<number> {
  const base = `http://127.0.0.1:${port}`;
  const first = await fetch(`${base}/api/v1/health`);
  const csrf = /parley_csrf=([^;]+)/u.exec(first.headers.get('set-cookie') ?? '')?.[1] ?? '';
  const response = await fetch(`${base}/api/v1/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: `parley_csrf=${csrf}`, 'x-csrf-token': csrf },
    body: JSON.stringify({ email, password }),
  });
  return response.status;
}

function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
}

describe('the parley command line and the data directory', { timeout: 180_000 }, () => {
  let dataDir: string;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-cli-'));
    const pglite = new PGlite(path.join(dataDir, 'pglite'), { loadDataDir: new Blob([fs.readFileSync(SNAPSHOT_FILE)]) });
    await pglite.waitReady;
    await pglite.close();
  });
  afterAll(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses bad input with a clear message on stderr and a non-zero exit, before touching the database', async () => {
    const [badFlags, unknown, none, positional] = await Promise.all([
      cli(dataDir, ['users:create', '--email', 'nope', '--password', 'short', '--role', 'owner']),
      cli(dataDir, ['users:delete']),
      cli(dataDir, []),
      cli(dataDir, ['users:list', 'extra']),
    ]);
    expect(badFlags.code).toBe(1);
    expect(badFlags.stdout).toBe('');
    expect(badFlags.stderr).toContain('--email: Please enter a valid email address');
    expect(badFlags.stderr).toContain('--password: Password must be at least 8 characters');
    expect(badFlags.stderr).toContain('Usage: npm run parley -- users:create');
    expect(badFlags.stderr).not.toMatch(/at .*\.ts:\d+/u); // a message, not a stack trace
    expect(unknown).toMatchObject({ code: 1, stdout: '' });
    expect(unknown.stderr).toContain('Unknown command "users:delete"');
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Usage: npm run parley -- <command>');
    expect(positional.code).toBe(1);
    expect(positional.stderr).toContain('Unexpected argument "extra"');
    expect(fs.existsSync(lockPath(dataDir))).toBe(false);
  });

  it('users:create opens the directory itself when no server runs, and prints the user as JSON', async () => {
    const result = await cli(dataDir, ['users:create', '--email', 'Carla@Example.com', '--password', PASSWORD, '--role', 'client', '--name=Carla Díaz']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ email: 'carla@example.com', name: 'Carla Díaz', role: 'client', emailVerified: true });
    expect(fs.existsSync(lockPath(dataDir))).toBe(false);
  });

  it('users:list ignores a stale lock left by a dead process', async () => {
    fs.writeFileSync(lockPath(dataDir), JSON.stringify({ pid: deadPid(), startedAt: new Date().toISOString(), controlToken: 'x', controlUrl: 'http://127.0.0.1:1' }));
    const result = await cli(dataDir, ['users:list']);
    expect(result.code).toBe(0);
    const { users } = JSON.parse(result.stdout) as { users: { email: string; role: string; status: string }[] };
    expect(users).toContainEqual(expect.objectContaining({ email: 'carla@example.com', role: 'client', status: 'active' }));
    expect(fs.existsSync(lockPath(dataDir))).toBe(false);
  });

  it('says plainly when the server holding the directory does not answer, and leaves the directory alone', async () => {
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 120000)'], { stdio: 'ignore' });
    children.push(holder);
    const lock = { pid: holder.pid, startedAt: new Date().toISOString(), controlToken: 'x', controlUrl: `http://127.0.0.1:${await freePort()}` };
    fs.writeFileSync(lockPath(dataDir), JSON.stringify(lock));
    try {
      const result = await cli(dataDir, ['users:list']);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`The Parley server holding this data directory does not answer at ${lock.controlUrl}`);
      expect(JSON.parse(fs.readFileSync(lockPath(dataDir), 'utf8'))).toEqual(lock);
    } finally {
      holder.kill();
      fs.rmSync(lockPath(dataDir), { force: true });
    }
  });

  it('with a server on the directory: it prints the generated admin password once, commands go through it, a second server is refused', async () => {
    const port = await freePort();
    const server = await startServer(dataDir, port);
    children.push(server.child);
    try {
      const generated = /password: (\S+)\s+\(shown only this once/u.exec(server.output())?.[1];
      expect(generated).toBeDefined();
      expect(server.output()).toContain('e-mail:   admin@parley.local');
      expect(await signInOverHttp(port, 'admin@parley.local', generated!)).toBe(200);
      const lock = JSON.parse(fs.readFileSync(lockPath(dataDir), 'utf8')) as { pid: number; controlUrl: string };
      expect(lock).toMatchObject({ pid: server.child.pid, controlUrl: `http://127.0.0.1:${port}` });

      const created = await cli(dataDir, ['users:create', '--email', 'dan@example.com', '--password', PASSWORD, '--role', 'manager']);
      expect(created.stderr).toBe('');
      expect(created.code).toBe(0);
      expect(JSON.parse(created.stdout)).toMatchObject({ email: 'dan@example.com', role: 'manager' });
      expect(await signInOverHttp(port, 'dan@example.com', PASSWORD)).toBe(200);

      const refused = await cli(dataDir, ['users:create', '--email', 'dan@example.com', '--password', PASSWORD, '--role', 'manager']);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('already exists');

      const second = await run(parleyEntry('main'), baseEnv(dataDir, { PORT: String(await freePort()), HOST: '127.0.0.1' }));
      expect(second.code).toBe(1);
      expect(second.stderr).toContain(`is in use by another Parley process (pid ${server.child.pid})`);
    } finally {
      const exited = new Promise((resolve) => server.child.once('exit', resolve));
      server.child.kill('SIGTERM');
      await exited;
    }
    expect(server.child.exitCode).toBe(0);
    expect(fs.existsSync(lockPath(dataDir))).toBe(false);
    expect(server.output()).not.toContain('Error');
  });
});
