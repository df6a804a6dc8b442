import { describe, expect, it } from 'vitest';
import { ACCURACY_MIN_QUESTIONS, accuracyNote } from './accuracy-note';

describe('the accuracy figure’s explanation', () => {
  it('says what it was measured on', () => {
    const note = accuracyNote({ entries: 20, examples: 80, accuracy: 0.875, accuracyQuestions: 80 });
    expect(note).toMatchObject({ figure: '88%', tooSmall: false });
    expect(note.text).toBe(
      "Accuracy 88%: measured on 80 example questions of this knowledge base, each answered by a model trained without it (cross-validation) — not on customers' questions.",
    );
  });

  it('warns when the knowledge base is too small to estimate it', () => {
    const note = accuracyNote({ entries: 4, examples: 12, accuracy: 1, accuracyQuestions: 12 });
    expect(note.tooSmall).toBe(true);
    expect(note.text).toContain('measured on 12 example questions');
    expect(note.text).toContain(`Too few questions to estimate it reliably (fewer than ${ACCURACY_MIN_QUESTIONS})`);
  });

  it('falls back to the example count for versions trained before the count was recorded, and explains a missing figure', () => {
    expect(accuracyNote({ entries: 3, examples: 9, accuracy: 0.5 }).tooSmall).toBe(true);
    expect(accuracyNote({ entries: 40, examples: 160, accuracy: 0.9 }).text).toContain("this knowledge base's own example questions");
    const none = accuracyNote({ entries: 3, examples: 3, accuracy: null, accuracyQuestions: null });
    expect(none).toMatchObject({ figure: null, tooSmall: true });
    expect(none.text).toMatch(/^No accuracy estimate/u);
  });
});
