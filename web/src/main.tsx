import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { PRERENDERED } from '@common/prerender';
import { AppRouter, preloadPage } from './app/router';
import { handOverTyping } from './lib/prerender-handoff';
import { loadSession } from './lib/session';
import { configureZod } from './lib/zod-config';
import './index.css';

configureZod();

// index.html carries a description for crawlers without JavaScript; each page renders its own.
for (const meta of document.head.querySelectorAll('meta[name="description"]')) meta.remove();

// Start loading the session at once: the top navigation and the route guards both need it.
loadSession().catch(() => {
  // The failure is kept in the session state: guarded pages show the error screen.
});

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

function render(container: HTMLElement) {
  createRoot(container).render(
    <StrictMode>
      <AppRouter />
    </StrictMode>,
  );
}

if (root.hasAttribute(PRERENDERED)) {
  // The server pre-rendered this page (server/http/web-app.ts): load its layout and screen first so
  // the first render replaces the markup in one commit, and carry over what was typed until then.
  void preloadPage(window.location.pathname)
    .catch(() => {
      // A chunk that failed to load: the app's own error handling takes over when it renders.
    })
    .then(() => {
      handOverTyping(root);
      // A transition renders in slices, so a slow phone's main thread is never held for long; the
      // pre-rendered page stays on screen, and usable, until the one commit.
      startTransition(() => render(root));
    });
} else {
  render(root);
}
