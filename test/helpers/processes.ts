/**
 * A Node.js child process run to its end (the command line, a server script), with what it
 * printed. Killed and refused after `timeoutMs`, with its output in the error.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isBuildFresh } from '../../scripts/build-lib.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');
let buildIsFresh: boolean | undefined;

/**
 * Node's arguments that run Parley's server (`main`) or command line (`cli`): the build in
 * dist/server when it matches the sources (`npm test` and CI build before the tests), else the
 * sources through tsx. Same code either way; the build starts a server about 6 s sooner on two
 * busy cores, which the tests that start servers and run the CLI pay dozens of times.
 */
export function parleyEntry(entry: 'main' | 'cli'): string[] {
  buildIsFresh ??= isBuildFresh();
  if (buildIsFresh) return [path.join(ROOT, 'dist/server', entry === 'main' ? 'main.js' : 'cli.js')];
  // tsx by its path, so that a process started in another directory finds it too.
  const tsx = pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
  return ['--import', tsx, path.join(ROOT, entry === 'main' ? 'server/main.ts' : 'server/cli/main.ts')];
}

export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runNode(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`timed out: ${args.join(' ')}\n${stdout}\n${stderr}`));
    }, options.timeoutMs ?? 90_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A Parley server process (`parleyEntry('main')`); resolves once it printed that it is running. */
export function startParleyServer(options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, parleyEntry('main'), { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 90_000);
    const onData = (c: Buffer) => {
      output += c.toString();
      if (output.includes('Parley is running at')) {
        clearTimeout(timer);
        resolve({ child, output: () => output });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
}
