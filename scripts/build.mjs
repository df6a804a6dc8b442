import { buildAll } from './build-lib.mjs';

const ms = await buildAll();
console.log(`Built Parley in ${ms} ms (dist/web, dist/server).`);
