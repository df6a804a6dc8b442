import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { COPIED_MS, copyWithFeedback, type CopyFeedbackDeps } from './copy-feedback';

function deps(copies: boolean) {
  const calls: string[] = [];
  const state = { copied: false };
  const d: CopyFeedbackDeps = {
    copy: (text) => {
      calls.push(`copy ${text}`);
      return Promise.resolve(copies);
    },
    success: (title) => calls.push(`toast ${title}`),
    failure: (title) => calls.push(`error ${title}`),
    setCopied: (copied) => {
      state.copied = copied;
    },
    timer: { current: undefined },
  };
  return { d, calls, state };
}

describe('copy buttons', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("says 'Copied to clipboard' and shows the check mark for 2 seconds", async () => {
    const { d, calls, state } = deps(true);
    expect(await copyWithFeedback('https://parley.test', 'Copied to clipboard', d)).toBe(true);
    expect(calls).toEqual(['copy https://parley.test', 'toast Copied to clipboard']);
    expect(state.copied).toBe(true);
    vi.advanceTimersByTime(COPIED_MS - 1);
    expect(state.copied).toBe(true);
    vi.advanceTimersByTime(1);
    expect(state.copied).toBe(false);
    expect(COPIED_MS).toBe(2000);
  });

  it('a second copy restarts the 2 seconds', async () => {
    const { d, state } = deps(true);
    await copyWithFeedback('a', 'Copied to clipboard', d);
    vi.advanceTimersByTime(1500);
    await copyWithFeedback('a', 'Copied to clipboard', d);
    vi.advanceTimersByTime(1500);
    expect(state.copied).toBe(true);
    vi.advanceTimersByTime(500);
    expect(state.copied).toBe(false);
  });

  it('says so when the browser refuses the clipboard, with no check mark', async () => {
    const { d, calls, state } = deps(false);
    expect(await copyWithFeedback('a', 'Copied to clipboard', d)).toBe(false);
    expect(calls).toEqual(['copy a', 'error Copy failed']);
    expect(state.copied).toBe(false);
  });
});
