import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const webRoot = new URL('.', import.meta.url).pathname;
const api = process.env.PARLEY_API_URL ?? 'http://localhost:3000';

export default defineConfig({
  root: webRoot,
  publicDir: 'public',
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: {
      '@/': new URL('./src/', import.meta.url).pathname,
      '@common/': new URL('../common/', import.meta.url).pathname,
    },
  },
  build: {
    outDir: new URL('../dist/web', import.meta.url).pathname,
    emptyOutDir: true,
    assetsDir: 'assets',
    // The server's CSP allows no inline scripts; keep every asset a real file.
    assetsInlineLimit: 0,
    // Every browser Parley supports has <link rel=modulepreload>; the polyfill would only add bytes.
    modulePreload: { polyfill: false },
    reportCompressedSize: true,
    // The server reads the site script's and stylesheet's hashed names from .vite/manifest.json
    // (server/http/public-site.ts): the public site is rendered there, not from index.html.
    manifest: true,
    rollupOptions: {
      input: {
        app: new URL('./index.html', import.meta.url).pathname,
        site: new URL('./src/app/site/islands.ts', import.meta.url).pathname,
        // The pre-rendered auth pages' loader (server/http/web-app.ts).
        boot: new URL('./src/app/prerender-boot.ts', import.meta.url).pathname,
      },
    },
  },
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      '/api': { target: api, changeOrigin: false, ws: true },
      // Trailing slash: the page /webhooks (and /webhooks?tab=…) stays the app's; /webhooks/<platform> goes to the API.
      '/webhooks/': { target: api, changeOrigin: false },
      // The public site is rendered by the API (server/http/public-site.ts, common/routes.ts SITE_PAGES);
      // its pages then load the site script from this dev server.
      '^(?:/|/services|/our-services|/about|/about-us|/contact|/contact-us|/blog|/blog/[^/?]+|/features|/sitemap\\.xml|/robots\\.txt|/newsletter/[^?]+)(?:\\?.*)?$': {
        target: api,
        changeOrigin: false,
      },
      // The chat widget is its own build (web/widget): the API serves dist/web/widget.js once built.
      '/widget.js': { target: api, changeOrigin: false },
    },
  },
  preview: { port: 4174 },
});
