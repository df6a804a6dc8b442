import { useEffect } from 'react';

/** The element web/widget mounts itself into. */
const WIDGET_ELEMENT = 'parley-chat-widget';

let requested = false;
let onPublicPage = false;

function applyVisibility(): void {
  document.querySelector(WIDGET_ELEMENT)?.toggleAttribute('hidden', !onPublicPage);
}

/** Adds `<script src="/widget.js" data-widget-id=… async>` once, when Parley has a demo widget. */
async function loadWidget(): Promise<void> {
  const response = await fetch('/api/v1/public/demo-widget', { headers: { accept: 'application/json' } });
  if (!response.ok) return;
  // No zod here: the public pages' bundle stays small (the same rule as lib/session.ts).
  const body: unknown = await response.json();
  const widgetId = typeof body === 'object' && body !== null && 'widgetId' in body ? body.widgetId : null;
  if (typeof widgetId !== 'string' || widgetId === '') return;
  // The widget mounts itself after its own request; hide it then if we have left the public pages.
  const observer = new MutationObserver(() => {
    if (!document.querySelector(WIDGET_ELEMENT)) return;
    observer.disconnect();
    applyVisibility();
  });
  observer.observe(document.body, { childList: true });
  const script = document.createElement('script');
  script.src = '/widget.js';
  script.async = true;
  script.dataset.widgetId = widgetId;
  document.body.append(script);
}

/**
 * Parley's own website chat (its demo client's widget) on the public pages: a separate async
 * script, outside the app's bundle. Hidden again on the signed-in and auth screens.
 */
export function DemoChatWidget() {
  useEffect(() => {
    onPublicPage = true;
    applyVisibility();
    if (!requested) {
      requested = true;
      loadWidget().catch(() => {
        requested = false; // try again on the next public page
      });
    }
    return () => {
      onPublicPage = false;
      applyVisibility();
    };
  }, []);
  return null;
}
