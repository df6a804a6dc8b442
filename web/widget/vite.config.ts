/**
 * The website chat widget: one classic script (IIFE), `dist/web/widget.js`, built after the web
 * app into the same folder (the app's build empties it first). No React, no CSS file, nothing of
 * the portal: vanilla TypeScript with its styles inlined.
 */
import { defineConfig } from 'vite';

const widgetRoot = new URL('.', import.meta.url).pathname;

export default defineConfig({
  root: widgetRoot,
  publicDir: false,
  build: {
    outDir: new URL('../../dist/web', import.meta.url).pathname,
    emptyOutDir: false,
    target: 'es2022',
    minify: true,
    sourcemap: false,
    reportCompressedSize: true,
    lib: {
      entry: new URL('./src/main.ts', import.meta.url).pathname,
      formats: ['iife'],
      name: 'ParleyWidget',
      fileName: () => 'widget.js',
    },
  },
});
