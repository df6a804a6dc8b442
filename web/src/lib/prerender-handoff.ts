/**
 * Carries what a visitor typed into a pre-rendered page (server/http/web-app.ts) over to the app's
 * own form when the app takes the page over (main.tsx): the app's first commit puts new elements in
 * place of the pre-rendered ones, which would otherwise drop the text and the focus. The values are
 * read from the replaced fields once the app's page is running (typing goes on until then), kept in
 * memory only, and for at most `WAIT_MS`.
 */

import { PRERENDERED, VISITED } from '@common/prerender';

const WAIT_MS = 10_000;


type Field = HTMLInputElement | HTMLTextAreaElement;

/** A field's key: its name, else its id (React forms name their fields). */
const keyOf = (field: Field): string => field.name || field.id;

function fieldsIn(root: ParentNode): Field[] {
  return [...root.querySelectorAll<Field>('input, textarea')].filter((field) => keyOf(field) !== '' && field.type !== 'hidden');
}

const isToggle = (field: Field): field is HTMLInputElement => field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio');

function setValue(field: Field, value: string): void {
  // React tracks the value it last set; the prototype's setter goes around it, so the input event
  // below reaches the form's onChange as typing would.
  const prototype = field instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(prototype, 'value')?.set?.call(field, value);
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

function copyInto(field: Field, from: Field): void {
  if (isToggle(from)) {
    if (from.checked !== from.defaultChecked && isToggle(field) && field.checked !== from.checked) field.click();
  } else if (from.value !== from.defaultValue && field.value === field.defaultValue) {
    setValue(field, from.value);
  }
}

function selectionOf(field: Field): [number, number] | null {
  try {
    return field.selectionStart === null || field.selectionEnd === null ? null : [field.selectionStart, field.selectionEnd];
  } catch {
    return null; // e-mail and number inputs have no selection
  }
}

/**
 * Call before the app's first render into `root`: watches the pre-rendered fields, and once the
 * app's fields of the same names appear, gives them what was typed, marks those the visitor has
 * left as touched (focus and blur), and gives the focus back.
 */
export function handOverTyping(root: HTMLElement): void {
  const replaced = new Set(fieldsIn(root));
  if (replaced.size === 0) return;
  const byKey = new Map<string, Field>();
  for (const field of replaced) if (!byKey.has(keyOf(field))) byKey.set(keyOf(field), field);
  let focused = replaced.has(document.activeElement as Field) ? (document.activeElement as Field) : null;
  const onFocus = (event: FocusEvent) => {
    if (replaced.has(event.target as Field)) focused = event.target as Field;
  };
  root.addEventListener('focusin', onFocus);

  const pending = new Set(byKey.keys());
  const apply = (): void => {
    const active = document.activeElement;
    const focusFree = active === document.body || active === null || replaced.has(active as Field);
    let refocus: { field: Field; selection: [number, number] | null } | null = null;
    for (const field of fieldsIn(root)) {
      const key = keyOf(field);
      const from = byKey.get(key);
      if (replaced.has(field) || !from || !pending.has(key)) continue;
      pending.delete(key);
      copyInto(field, from);
      if (from === focused && focusFree) {
        refocus = { field, selection: selectionOf(from) };
      } else if (from.hasAttribute(VISITED) && focusFree) {
        // Visited and left: the form learns it was touched, as it would have.
        field.focus();
        field.blur();
      }
    }
    if (refocus) {
      refocus.field.focus();
      if (refocus.selection) refocus.field.setSelectionRange(...refocus.selection);
    }
  };
  // The layout removes `data-prerendered` in its effect (auth-layout.tsx), which runs after the
  // forms' own effects: from then on they see the input and blur events below.
  const observer = new MutationObserver(() => {
    if (!root.hasAttribute(PRERENDERED)) {
      apply();
      stop();
    }
  });
  const timer = window.setTimeout(stop, WAIT_MS);
  function stop() {
    observer.disconnect();
    window.clearTimeout(timer);
    root.removeEventListener('focusin', onFocus);
  }
  observer.observe(root, { attributes: true, attributeFilter: [PRERENDERED] });
}
