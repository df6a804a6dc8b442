/** Part 2 §9: the copied check mark lasts 2 seconds. */
export const COPIED_MS = 2000;

export interface CopyFeedbackDeps {
  copy: (text: string) => Promise<boolean>;
  success: (title: string) => void;
  failure: (title: string, description: string) => void;
  setCopied: (copied: boolean) => void;
  /** The pending reset of the check mark, so a second copy restarts its 2 seconds. */
  timer: { current: ReturnType<typeof setTimeout> | undefined };
}

/**
 * Copies `value`: on success the toast `title` and the check mark for 2 s; when the browser
 * refuses the clipboard, says so. Answers whether it copied.
 */
export async function copyWithFeedback(value: string, title: string, deps: CopyFeedbackDeps): Promise<boolean> {
  if (!(await deps.copy(value))) {
    deps.failure('Copy failed', 'Your browser refused the clipboard: select the text and copy it with Ctrl+C.');
    return false;
  }
  deps.success(title);
  deps.setCopied(true);
  clearTimeout(deps.timer.current);
  deps.timer.current = setTimeout(() => {
    deps.timer.current = undefined;
    deps.setCopied(false);
  }, COPIED_MS);
  return true;
}
