import { Toaster as Sonner } from 'sonner';

/** Spec part 1 §9: three toasts visible at once, 4000 ms each. */
export const TOAST_VISIBLE = 3;
export const TOAST_DURATION_MS = 4000;

export function Toaster() {
  return (
    <Sonner
      theme="dark"
      position="bottom-right"
      visibleToasts={TOAST_VISIBLE}
      duration={TOAST_DURATION_MS}
      richColors
      closeButton
    />
  );
}
