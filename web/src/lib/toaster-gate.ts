/**
 * The toast layer (sonner) is loaded only once a page needs it, so the landing page does not
 * ship it. Layouts with forms or signed-in features ask for it; it then stays mounted.
 */
import { useEffect, useSyncExternalStore } from 'react';

let wanted = false;
const listeners = new Set<() => void>();

export function requestToaster(): void {
  if (wanted) return;
  wanted = true;
  for (const listener of listeners) listener();
}

export function useToasterWanted(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => wanted,
    () => wanted,
  );
}

/** Call in a layout whose pages show toasts. */
export function useRequestToaster(): void {
  useEffect(requestToaster, []);
}
