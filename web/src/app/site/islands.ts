/**
 * The public site's only script (issue 15 §4): the pages arrive rendered from the server
 * (./render.tsx); this adds what is interactive, with no framework, so `/` ships a few kilobytes:
 * - the mobile menu button (`data-island="menu-toggle"`);
 * - the contact form (`data-island="contact-form"`) and the newsletter box (`data-island="newsletter"`);
 * - the signed-in end of the top navigation (spec part 1 §2.3: bell with the real unread count,
 *   welcome line, Dashboard, Sign Out) once the session says someone is signed in;
 * - Parley's own chat widget, loaded when the page is idle or at the first interaction.
 * No zod here: the answers are checked by hand, as web/src/lib/session.ts does.
 */
import '../../index.css';

const CSRF_COOKIE = 'parley_csrf';
const shownAt = Date.now();

function csrfToken(): string {
  const match = document.cookie.split('; ').find((part) => part.startsWith(`${CSRF_COOKIE}=`));
  return match ? decodeURIComponent(match.slice(CSRF_COOKIE.length + 1)) : '';
}

async function postJson(url: string, body: unknown): Promise<{ status: number; body: unknown; retryAfter: string | null }> {
  const response = await fetch(url, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', accept: 'application/json', 'x-csrf-token': csrfToken() },
    body: JSON.stringify(body),
  });
  let parsed: unknown = null;
  try {
    parsed = await response.json();
  } catch {
    // an empty or non-JSON answer
  }
  return { status: response.status, body: parsed, retryAfter: response.headers.get('retry-after') };
}

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
}

/** `{ error: { message, fields } }` of the API's error answers. */
function apiError(body: unknown): { message: string; fields: Record<string, string> } {
  const error = record(record(body)?.error);
  const fields: Record<string, string> = {};
  const raw = record(error?.fields);
  if (raw) for (const [key, value] of Object.entries(raw)) if (typeof value === 'string') fields[key] = value;
  return { message: typeof error?.message === 'string' ? error.message : 'Something went wrong. Please try again.', fields };
}

/** A toast (spec: 'Message sent successfully!' / "We'll get back to you within 24 hours."). */
function toast(title: string, description: string, tone: 'success' | 'error'): void {
  let region = document.getElementById('site-toasts');
  if (!region) {
    region = document.createElement('div');
    region.id = 'site-toasts';
    // Visual only: the form's own status line (a live region) says the same to screen readers.
    region.setAttribute('aria-hidden', 'true');
    region.className = 'fixed inset-x-4 bottom-4 z-50 flex flex-col items-end gap-2 sm:left-auto sm:w-96';
    document.body.append(region);
  }
  const item = document.createElement('div');
  item.className = `w-full rounded-lg border bg-popover p-4 text-sm shadow-lg ${tone === 'error' ? 'border-destructive/50' : 'border-success/40'}`;
  const strong = document.createElement('p');
  strong.className = 'font-semibold';
  strong.textContent = title;
  const text = document.createElement('p');
  text.className = 'mt-1 text-muted-foreground';
  text.textContent = description;
  item.append(strong, text);
  region.append(item);
  setTimeout(() => item.remove(), 6_000);
}

function setFieldErrors(form: HTMLFormElement, fields: Record<string, string>): void {
  for (const slot of form.querySelectorAll<HTMLElement>('[data-error-for]')) {
    const name = slot.dataset.errorFor ?? '';
    const message = fields[name];
    slot.textContent = message ?? '';
    slot.hidden = message === undefined;
    const field = form.elements.namedItem(name);
    if (field instanceof HTMLElement) field.setAttribute('aria-invalid', String(message !== undefined));
  }
  const first = Object.keys(fields)[0];
  const element = first ? form.elements.namedItem(first) : null;
  if (element instanceof HTMLElement) element.focus();
}

function value(form: HTMLFormElement, name: string): string {
  const element = form.elements.namedItem(name);
  return element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement ? element.value : '';
}

function busy(form: HTMLFormElement, on: boolean): void {
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
  if (button) button.disabled = on;
}

function contactForm(form: HTMLFormElement): void {
  const status = form.querySelector<HTMLElement>('[role="status"]');
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    busy(form, true);
    if (status) status.textContent = 'Sending…';
    const company = value(form, 'company').trim();
    void postJson('/api/v1/public/contact', {
      firstName: value(form, 'firstName'),
      lastName: value(form, 'lastName'),
      email: value(form, 'email'),
      ...(company ? { company } : {}),
      message: value(form, 'message'),
      website: value(form, 'website'),
      shownAt,
    })
      .then(({ status: code, body, retryAfter }) => {
        if (code === 201) {
          setFieldErrors(form, {});
          form.reset();
          if (status) status.textContent = "Message sent successfully! We'll get back to you within 24 hours.";
          toast('Message sent successfully!', "We'll get back to you within 24 hours.", 'success');
          return;
        }
        const error = apiError(body);
        setFieldErrors(form, error.fields);
        if (Object.keys(error.fields).length > 0) {
          // The messages are under their fields; the first of them has the focus.
          if (status) status.textContent = 'Please correct the fields marked above.';
          return;
        }
        const message = code === 429 && retryAfter ? `${error.message} (try again in ${retryAfter} s)` : error.message;
        if (status) status.textContent = message;
        toast('Message not sent', message, 'error');
      })
      .catch(() => {
        if (status) status.textContent = 'The message could not be sent: check your connection and try again.';
      })
      .finally(() => busy(form, false));
  });
}

function newsletterForm(form: HTMLFormElement): void {
  const status = document.querySelector<HTMLElement>('[data-status-for="newsletter"]');
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    busy(form, true);
    void postJson('/api/v1/public/newsletter', { email: value(form, 'email'), website: value(form, 'website') })
      .then(({ status: code, body }) => {
        if (code === 202) {
          const message = record(body)?.message;
          form.reset();
          if (status) status.textContent = typeof message === 'string' ? message : 'Check your inbox to confirm your subscription.';
          return;
        }
        const error = apiError(body);
        if (status) status.textContent = error.fields.email ?? error.message;
      })
      .catch(() => {
        if (status) status.textContent = 'Could not subscribe: check your connection and try again.';
      })
      .finally(() => busy(form, false));
  });
}

function menuToggle(button: HTMLButtonElement): void {
  const menu = document.getElementById(button.getAttribute('aria-controls') ?? '');
  if (!menu) return;
  button.addEventListener('click', () => {
    const open = menu.hidden;
    menu.hidden = !open;
    button.setAttribute('aria-expanded', String(open));
    button.setAttribute('aria-label', open ? 'Close menu' : 'Open menu');
    button.querySelector('[data-icon="open"]')?.classList.toggle('hidden', open);
    button.querySelector('[data-icon="close"]')?.classList.toggle('hidden', !open);
  });
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

const buttonClass = 'inline-flex h-8 items-center justify-center gap-1.5 rounded-md px-3 text-sm font-medium transition-colors';

/** The signed-in account area: bell (real unread count), welcome line, Dashboard, Sign Out. */
function renderAccount(slot: HTMLElement, user: { name: string; email: string }, unread: number, mobile: boolean): void {
  const wrap = element('div', mobile ? 'flex flex-col gap-2' : 'flex items-center gap-2');
  const row = element('div', 'flex items-center gap-2');
  const bell = element('a', 'relative inline-flex size-8 items-center justify-center rounded-md hover:bg-accent');
  bell.href = '/notifications';
  bell.setAttribute('aria-label', unread > 0 ? `Notifications, ${unread} unread` : 'Notifications');
  bell.innerHTML =
    '<svg aria-hidden="true" xmlns="http://www.w3.org/2000/svg" width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="M10.268 21a2 2 0 0 0 3.464 0"/><path d="M3.262 15.326A1 1 0 0 0 4 17h16a1 1 0 0 0 .74-1.673C19.41 13.956 18 12.499 18 8A6 6 0 0 0 6 8c0 4.499-1.411 5.956-2.738 7.326"/></svg>';
  if (unread > 0) bell.append(element('span', 'absolute -top-1 -right-1 min-w-4 rounded-full bg-destructive px-1 text-center text-[10px] leading-4 font-semibold text-white', unread > 99 ? '99+' : String(unread)));
  row.append(bell, element('span', 'max-w-48 truncate text-sm text-muted-foreground', `Welcome, ${user.name || user.email}`));
  const dashboard = element('a', `${buttonClass} border border-input hover:bg-accent ${mobile ? 'w-full' : ''}`, 'Dashboard');
  dashboard.href = '/dashboard';
  const signOut = element('button', `${buttonClass} hover:bg-accent ${mobile ? 'w-full' : ''}`, 'Sign Out');
  signOut.type = 'button';
  signOut.addEventListener('click', () => {
    signOut.disabled = true;
    void postJson('/api/v1/auth/sign-out', {}).finally(() => window.location.reload());
  });
  wrap.append(row, dashboard, signOut);
  slot.replaceChildren(wrap);
}

async function account(): Promise<void> {
  const slots = [...document.querySelectorAll<HTMLElement>('[data-account]')];
  if (slots.length === 0) return;
  const session = await fetch('/api/v1/auth/session', { credentials: 'same-origin', headers: { accept: 'application/json' } });
  if (!session.ok) return;
  const user = record(record(await session.json())?.user);
  if (!user) return;
  const name = typeof user.name === 'string' ? user.name : '';
  const email = typeof user.email === 'string' ? user.email : '';
  let unread = 0;
  const count = await fetch('/api/v1/me/notifications/unread-count', { credentials: 'same-origin', headers: { accept: 'application/json' } });
  if (count.ok) {
    const n = record(await count.json())?.count;
    if (typeof n === 'number') unread = n;
  }
  for (const slot of slots) renderAccount(slot, { name, email }, unread, slot.dataset.account === 'mobile');
}

/** Parley's own website chat (its demo client's widget), after the page is idle or at the first interaction. */
function chatWidgetWhenIdle(): void {
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    for (const type of ['pointerdown', 'keydown', 'scroll', 'touchstart'] as const) removeEventListener(type, start);
    void fetch('/api/v1/public/demo-widget', { headers: { accept: 'application/json' } })
      .then(async (response) => {
        if (!response.ok) return;
        const widgetId = record(await response.json())?.widgetId;
        if (typeof widgetId !== 'string' || widgetId === '') return;
        const script = document.createElement('script');
        script.src = '/widget.js';
        script.async = true;
        script.dataset.widgetId = widgetId;
        document.body.append(script);
      })
      .catch(() => undefined);
  };
  for (const type of ['pointerdown', 'keydown', 'scroll', 'touchstart'] as const) addEventListener(type, start, { once: true, passive: true });
  const idle = () => ('requestIdleCallback' in window ? requestIdleCallback(start, { timeout: 8_000 }) : setTimeout(start, 3_000));
  if (document.readyState === 'complete') idle();
  else addEventListener('load', idle, { once: true });
}

for (const form of document.querySelectorAll<HTMLFormElement>('form[data-island="contact-form"]')) contactForm(form);
for (const form of document.querySelectorAll<HTMLFormElement>('form[data-island="newsletter"]')) newsletterForm(form);
for (const button of document.querySelectorAll<HTMLButtonElement>('[data-island="menu-toggle"]')) menuToggle(button);
void account().catch(() => undefined);
chatWidgetWhenIdle();
