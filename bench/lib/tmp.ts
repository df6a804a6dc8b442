/**
 * Temporary directories for one bench run, all under one root that is removed when the process
 * exits, whichever way (the SIGINT handler in process.ts exits through `process.exit`).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

let root: string | undefined;

process.on('exit', () => {
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

/** A new empty directory, e.g. tempDir('data') → /tmp/parley-bench-1234-xyz/data-abc. */
export function tempDir(prefix: string): string {
  root ??= fs.mkdtempSync(path.join(os.tmpdir(), `parley-bench-${process.pid}-`));
  return fs.mkdtempSync(path.join(root, `${prefix}-`));
}
