/**
 * `npm start`: builds what is stale, then runs the server in this process.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildAll, isBuildFresh, root } from './build-lib.mjs';

if (!isBuildFresh()) {
  console.log('Building Parley (first start, or the sources changed)…');
  const ms = await buildAll();
  console.log(`Built in ${ms} ms.`);
}
await import(pathToFileURL(path.join(root, 'dist/server/main.js')).href);
