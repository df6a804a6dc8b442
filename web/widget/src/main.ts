/**
 * Parley's website chat widget: one script tag on any site,
 *
 *   <script src="https://parley.example/widget.js" data-widget-id="WIDGET_ID" async></script>
 *
 * Parley's origin comes from the script's own src, so the same file works on the business's site
 * and on Parley's own pages. Everything renders inside a shadow root; nothing of the portal loads.
 */
import { RATING_LABELS } from '../../../common/messaging/satisfaction';
import { ApiError, createApi, type WidgetConfig, type WidgetMessage } from './api';
import { connectLive } from './live';
import { STYLES } from './styles';

declare global {
  interface Window {
    __parleyWidget?: true;
  }
}

const SVG = 'http://www.w3.org/2000/svg';
const ICONS = {
  chat: 'M4 5h16v11H8l-4 4z',
  close: 'M6 6l12 12M18 6L6 18',
  send: 'M4 12l16-8-6 16-2-7z',
} as const;

function icon(name: keyof typeof ICONS): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('fill', 'none');
  svg.setAttribute('stroke', 'currentColor');
  svg.setAttribute('stroke-width', '2');
  svg.setAttribute('stroke-linejoin', 'round');
  svg.setAttribute('stroke-linecap', 'round');
  const path = document.createElementNS(SVG, 'path');
  path.setAttribute('d', ICONS[name]);
  svg.append(path);
  return svg;
}

function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, value);
  el.append(...children);
  return el;
}

/** A per-widget slot in localStorage that survives storage being blocked (then: this page only). */
function tokenStore(widgetId: string) {
  const key = `parley:widget:${widgetId}:visitor`;
  let memory: string | null = null;
  return {
    read(): string | null {
      try {
        return localStorage.getItem(key) ?? memory;
      } catch {
        return memory;
      }
    },
    write(value: string | null): void {
      memory = value;
      try {
        if (value === null) localStorage.removeItem(key);
        else localStorage.setItem(key, value);
      } catch {
        // storage blocked (private mode, third-party storage rules): keep it in memory
      }
    },
  };
}

function randomId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

const timeOf = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

interface Pending {
  clientMessageId: string;
  text: string;
  li: HTMLLIElement;
  /** When the visitor pressed send (ms). */
  since: number;
}

/** Clock difference between browser and server tolerated when matching a live echo. */
const ECHO_SKEW_MS = 5 * 60_000;

function mount(origin: string, widgetId: string, config: WidgetConfig, api: ReturnType<typeof createApi>): void {
  const store = tokenStore(widgetId);
  let token = store.read();
  let session: Promise<string> | null = null;
  let live: { close(): void } | null = null;
  let unread = 0;

  // ---- DOM ---------------------------------------------------------------------------------
  const host = document.createElement('parley-chat-widget');
  const root = host.attachShadow({ mode: 'open' });
  if ('adoptedStyleSheets' in root && typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype) {
    // Constructed sheets need no 'unsafe-inline' in the host page's style-src.
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(STYLES);
    root.adoptedStyleSheets = [sheet];
  } else {
    root.append(h('style', {}, STYLES));
  }

  const badge = h('span', { class: 'badge', 'aria-hidden': 'true' });
  const bubble = h('button', { type: 'button', class: 'bubble', 'aria-label': 'Open chat', 'aria-expanded': 'false', 'aria-controls': 'parley-panel' }, icon('chat'), badge);
  const list = h('ul', { role: 'list', 'aria-label': 'Messages', 'aria-live': 'polite', 'aria-relevant': 'additions' });
  const log = h('div', { class: 'log' }, h('p', { class: 'greeting' }, config.greeting), list);
  const status = h('p', { class: 'status', role: 'status' });
  const input = h('textarea', { 'aria-label': 'Message', rows: '1', maxlength: '2000', placeholder: 'Type a message…', enterkeyhint: 'send' });
  const sendButton = h('button', { type: 'submit', class: 'send', 'aria-label': 'Send message', disabled: '' }, icon('send'));
  const form = h('form', {}, input, sendButton);
  const closeButton = h('button', { type: 'button', class: 'close', 'aria-label': 'Close chat' }, icon('close'));
  const panel = h(
    'section',
    { id: 'parley-panel', class: 'panel', role: 'dialog', 'aria-label': `Chat with ${config.name}`, hidden: '' },
    h('header', {}, h('h2', {}, config.name), closeButton),
    log,
    status,
    form,
  );
  root.append(h('div', { class: 'frame' }, panel, bubble));

  // ---- messages ----------------------------------------------------------------------------
  const shown = new Map<string, HTMLLIElement>();
  const pending = new Map<string, Pending>();

  const setMeta = (li: HTMLLIElement, ...content: (Node | string)[]) => li.querySelector('.meta')?.replaceChildren(...content);
  const scrollDown = () => {
    log.scrollTop = log.scrollHeight;
  };
  const setUnread = (n: number) => {
    unread = n;
    badge.textContent = n ? String(n) : '';
    bubble.setAttribute('aria-label', n ? `Open chat (${n} unread)` : 'Open chat');
  };

  function item(from: WidgetMessage['from'], text: string): HTMLLIElement {
    const who = from === 'visitor' ? 'You' : config.name;
    return h('li', { class: `msg ${from}` }, h('span', { class: 'sr' }, `${who}: `), h('p', {}, text), h('span', { class: 'meta' }));
  }

  function settle(li: HTMLLIElement, m: WidgetMessage): void {
    li.className = `msg ${m.from}`;
    li.dataset.at = m.createdAt;
    setMeta(li, h('time', { datetime: m.createdAt }, timeOf(m.createdAt)));
    shown.set(m.id, li);
  }

  /** Shows a message from the server once, in time order, before any unsent ones. */
  function upsert(m: WidgetMessage): void {
    if (shown.has(m.id)) return;
    // The live echo of a message this page is still sending: that bubble becomes the message.
    if (m.from === 'visitor') {
      for (const p of pending.values()) {
        if (p.text === m.text && !p.li.dataset.at && Date.parse(m.createdAt) > p.since - ECHO_SKEW_MS) {
          settle(p.li, m);
          return;
        }
      }
    }
    const li = item(m.from, m.text);
    settle(li, m);
    if (m.from === 'business' && m.survey) li.append(surveyBlock(m.survey));
    const later = [...list.children].find((el) => el instanceof HTMLLIElement && (!el.dataset.at || el.dataset.at > m.createdAt));
    list.insertBefore(li, later ?? null);
    if (m.from === 'business' && panel.hidden) setUnread(unread + 1);
    scrollDown();
  }

  // ---- satisfaction survey ---------------------------------------------------------------------
  /** Stars under the business's rating request while it can be answered; the rating once it was. */
  function surveyBlock(survey: NonNullable<WidgetMessage['survey']>): HTMLElement {
    const box = h('div', { class: 'survey' });
    if (survey.status === 'answered' && survey.rating !== null) {
      box.append(h('p', { class: 'thanks' }, `You rated ${survey.rating}/5 (${RATING_LABELS[survey.rating - 1] ?? ''}). Thank you!`));
      return box;
    }
    if (survey.status !== 'pending' || Date.parse(survey.expiresAt) <= Date.now()) return box;
    let chosen = 0;
    const stars = [1, 2, 3, 4, 5].map((n) =>
      h('button', { type: 'button', class: 'star', 'aria-label': `${n} of 5: ${RATING_LABELS[n - 1] ?? ''}`, 'aria-pressed': 'false' }, '★'),
    );
    const comment = h('textarea', { 'aria-label': 'Comment (optional)', rows: '2', maxlength: '2000', placeholder: 'Add a comment (optional)', hidden: '' });
    const submit = h('button', { type: 'button', class: 'rate', hidden: '' }, 'Send rating');
    const note = h('p', { class: 'note', role: 'status' });
    const paint = () => stars.forEach((s, i) => {
      s.classList.toggle('on', i < chosen);
      s.setAttribute('aria-pressed', String(i + 1 === chosen));
    });
    stars.forEach((s, i) =>
      s.addEventListener('click', () => {
        chosen = i + 1;
        paint();
        comment.hidden = false;
        submit.hidden = false;
      }),
    );
    submit.addEventListener('click', () => {
      if (!chosen) return;
      submit.setAttribute('disabled', '');
      note.textContent = 'Sending…';
      void (async () => {
        try {
          const answer = await api.rate(await startSession(), survey.id, chosen, comment.value);
          box.replaceChildren(h('p', { class: 'thanks' }, `You rated ${chosen}/5 (${RATING_LABELS[chosen - 1] ?? ''}). Thank you!`));
          upsert(answer);
        } catch (error) {
          const e = error instanceof ApiError ? error : new ApiError(0, 'Something went wrong');
          if (e.status === 409) box.replaceChildren(h('p', { class: 'thanks' }, e.message));
          else {
            note.textContent = e.message;
            submit.removeAttribute('disabled');
          }
        }
      })();
    });
    box.append(h('div', { class: 'stars', role: 'group', 'aria-label': 'Rate this conversation' }, ...stars), comment, submit, note);
    return box;
  }

  // ---- session -----------------------------------------------------------------------------
  function startSession(): Promise<string> {
    session ??= (async () => {
      const visitor = await api.visitor(token);
      token = visitor.visitorToken;
      store.write(token);
      live ??= connectLive({
        url: () => `${origin.replace(/^http/u, 'ws')}/api/v1/realtime?widgetId=${encodeURIComponent(widgetId)}&visitorToken=${encodeURIComponent(token ?? '')}`,
        onMessage: upsert,
        onSubscribed: () => void refresh(),
        onUnauthorized: restart,
      });
      void refresh();
      return visitor.visitorToken;
    })();
    session.catch(() => {
      session = null;
    });
    return session;
  }

  /** The token stopped working (the server's secret changed): start as a new visitor. */
  function restart(): void {
    token = null;
    store.write(null);
    session = null;
    void startSession().catch(() => undefined);
  }

  async function refresh(): Promise<void> {
    try {
      const messages = await api.messages(await startSession());
      for (const m of messages) upsert(m);
      status.textContent = '';
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) restart();
    }
  }

  async function deliver(p: Pending, attempt: number): Promise<void> {
    setMeta(p.li, 'Sending…');
    try {
      const m = await api.send(await startSession(), p.text, p.clientMessageId);
      pending.delete(p.clientMessageId);
      const already = shown.get(m.id);
      if (already && already !== p.li) p.li.remove();
      else settle(p.li, m);
      status.textContent = '';
    } catch (error) {
      const e = error instanceof ApiError ? error : new ApiError(0, 'Something went wrong');
      if (e.status === 401 && attempt === 0) {
        restart();
        return deliver(p, attempt + 1);
      }
      if (e.transient && attempt < 4) {
        // Same clientMessageId every time: the server stores the message once.
        setTimeout(() => void deliver(p, attempt + 1), 1000 * 2 ** attempt);
        return;
      }
      p.li.classList.add('failed');
      const retry = h('button', { type: 'button' }, 'Retry');
      retry.addEventListener('click', () => {
        p.li.classList.remove('failed');
        void deliver(p, 0);
      });
      setMeta(p.li, 'Not sent.', retry);
      status.textContent = e.message;
    }
  }

  function send(text: string): void {
    const p: Pending = { clientMessageId: randomId(), text, li: item('visitor', text), since: Date.now() };
    p.li.classList.add('pending');
    pending.set(p.clientMessageId, p);
    list.append(p.li);
    scrollDown();
    void deliver(p, 0);
  }

  // ---- interaction -------------------------------------------------------------------------
  function open(): void {
    panel.hidden = false;
    bubble.hidden = true;
    bubble.setAttribute('aria-expanded', 'true');
    setUnread(0);
    input.focus();
    scrollDown();
    startSession().catch((error: unknown) => {
      status.textContent = error instanceof Error ? error.message : 'Chat is unavailable right now.';
    });
  }

  function close(): void {
    panel.hidden = true;
    bubble.hidden = false;
    bubble.setAttribute('aria-expanded', 'false');
    bubble.focus();
  }

  bubble.addEventListener('click', open);
  closeButton.addEventListener('click', close);
  panel.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') close();
  });
  const resize = () => {
    input.style.height = 'auto';
    input.style.height = `${Math.min(input.scrollHeight, 120)}px`;
    sendButton.disabled = input.value.trim() === '';
  };
  input.addEventListener('input', resize);
  const submit = () => {
    const text = input.value.trim();
    if (!text) return;
    input.value = '';
    resize();
    send(text);
  };
  input.addEventListener('keydown', (event) => {
    // Enter sends, Shift+Enter starts a new line; never while an IME is composing a character.
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      submit();
    }
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    submit();
  });

  document.body.append(host);
  // A returning visitor: follow the conversation at once, so replies show (and count) live.
  if (token) startSession().catch(() => undefined);
}

async function start(script: HTMLScriptElement, widgetId: string): Promise<void> {
  const origin = new URL(script.src, location.href).origin;
  const api = createApi(origin, widgetId);
  let config: WidgetConfig;
  try {
    config = await api.config();
  } catch {
    return; // unknown or disabled widget, or Parley unreachable: show nothing
  }
  if (document.readyState === 'loading') await new Promise((resolve) => document.addEventListener('DOMContentLoaded', resolve, { once: true }));
  mount(origin, widgetId, config, api);
}

// `document.currentScript` is only set while this file first runs (async scripts included).
const script =
  document.currentScript instanceof HTMLScriptElement && document.currentScript.dataset.widgetId
    ? document.currentScript
    : document.querySelector<HTMLScriptElement>('script[data-widget-id][src*="widget.js"]');
const widgetId = script?.dataset.widgetId;
if (script && widgetId && !window.__parleyWidget) {
  window.__parleyWidget = true;
  void start(script, widgetId);
}
