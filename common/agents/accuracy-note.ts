/**
 * What the accuracy figure of a trained knowledge base means (issue 12 §4), in the same words on
 * the knowledge base page and in `kb:import`: it is measured by cross-validation on the knowledge
 * base's own example questions (each one answered by a model trained without it), not on
 * customers' questions; with few such questions it says little, and then a warning replaces it.
 */

/** Below this many held-out questions the figure is too uncertain to show as an estimate. */
export const ACCURACY_MIN_QUESTIONS = 30;

export interface AccuracyMetrics {
  entries: number;
  examples: number;
  accuracy: number | null;
  /** The example questions the accuracy was measured on (absent for versions trained before it was recorded). */
  accuracyQuestions?: number | null | undefined;
}

export interface AccuracyNote {
  /** "92%", or null when there is no figure. */
  figure: string | null;
  /** What the figure was measured on, or why there is none. */
  text: string;
  /** The knowledge base is too small to estimate the figure. */
  tooSmall: boolean;
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

export function accuracyNote(metrics: AccuracyMetrics): AccuracyNote {
  const measuredOn = metrics.accuracyQuestions ?? null;
  const figure = metrics.accuracy === null ? null : `${Math.round(metrics.accuracy * 100)}%`;
  const sample = measuredOn ?? metrics.examples;
  const tooSmall = sample < ACCURACY_MIN_QUESTIONS;
  if (figure === null) {
    return {
      figure: null,
      tooSmall: true,
      text:
        'No accuracy estimate: it needs entries with at least two example questions, so that each can be tested on a model trained without it. ' +
        'Add more ways to ask each answer.',
    };
  }
  const how =
    measuredOn !== null
      ? `Accuracy ${figure}: measured on ${plural(measuredOn, 'example question', 'example questions')} of this knowledge base, each answered by a model trained without it (cross-validation) — not on customers' questions.`
      : `Accuracy ${figure}: measured on this knowledge base's own example questions, each answered by a model trained without it (cross-validation) — not on customers' questions.`;
  if (!tooSmall) return { figure, tooSmall, text: how };
  return {
    figure,
    tooSmall,
    text: `${how} Too few questions to estimate it reliably (fewer than ${ACCURACY_MIN_QUESTIONS}): add more ways to ask each answer, and try the agent with questions worded as customers write them.`,
  };
}
