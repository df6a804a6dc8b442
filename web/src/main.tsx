import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppRouter } from './app/router';
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

createRoot(root).render(
  <StrictMode>
    <AppRouter />
  </StrictMode>,
);
