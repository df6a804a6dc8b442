/**
 * The one script of a pre-rendered auth page (server/http/web-app.ts): it starts the app once the
 * page has painted, so on a slow network the stylesheet — which the first paint waits for — does
 * not share the connection with the app's bundle. The app's entry and the page's own chunks are
 * named on this script's tag (`data-app`, `data-preload`); they load in parallel. Until the app has
 * taken over, it notes which fields the visitor has been in.
 */
import { VISITED } from '@common/prerender';

const tag = document.querySelector<HTMLScriptElement>('script[data-app]');

// Which fields the visitor has been in before the app runs (the app hands that over: lib/prerender-handoff.ts).
document.getElementById('root')?.addEventListener('focusin', (event) => {
  if (event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement) event.target.setAttribute(VISITED, '');
});

function start(): void {
  const app = tag?.dataset.app;
  if (!app) return;
  for (const href of (tag.dataset.preload ?? '').split(' ').filter(Boolean)) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = href;
    document.head.append(link);
  }
  void import(/* @vite-ignore */ app);
}

// The callback of the first frame runs before its paint; the timeout, right after it.
requestAnimationFrame(() => setTimeout(start, 0));
