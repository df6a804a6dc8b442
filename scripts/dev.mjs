/**
 * `npm run dev`: the API with reload (tsx watch) on PORT (3000) and the Vite dev server on 5173
 * with hot module replacement, proxying /api to the API. Open http://localhost:5173.
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
