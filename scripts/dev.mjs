/**
 * `npm run dev`: the API with reload (tsx watch) on PORT (3000) and the Vite dev server on 5173
 * with hot module replacement, proxying /api (and the server-rendered public site) to the API, and
 * the site renderer's build in watch mode. Open http://localhost:5173.
 */
import { spawn } from 'node:child_process';
import { root } from './build-lib.mjs';

const env = {
  ...process.env,
  NODE_ENV: 'development',
  PUBLIC_URL: process.env.PUBLIC_URL ?? 'http://localhost:5173',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
};
const children = [
  spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'server/main.ts'], { cwd: root, env, stdio: 'inherit' }),
  spawn('npx', ['vite', '--config', 'web/vite.config.ts', '--port', '5173', '--strictPort'], { cwd: root, env, stdio: 'inherit' }),
  // The public site's server renderer (dist/ssr/render.js), rebuilt when its sources change; the
  // API reloads it when the file changes (server/app.ts).
  spawn('npx', ['vite', 'build', '--config', 'web/vite.config.ts', '--ssr', 'src/app/site/render.tsx', '--outDir', '../dist/ssr', '--watch'], {
    cwd: root,
    env,
    stdio: 'inherit',
  }),
];
const stop = () => {
  for (const child of children) child.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) {
  child.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
}
