/** What the evaluation measures for one trained model on one labelled set (plus out-of-scope questions). */
import { expectedCalibrationError } from '../server/modules/agents/engines/embedded/calibration';
import type { EmbeddedModel } from '../server/modules/agents/engines/embedded/model';
import type { Example } from './datasets';

export const THRESHOLDS = [0.7, 0.8, 0.9] as const;
export const DEFAULT_THRESHOLD = 0.8;

export interface AtThreshold {
  threshold: number;
  /** Share of in-scope questions answered (confidence ≥ threshold). */
  answered: number;
  /** Share of the answered in-scope questions whose entry was wrong. */
  errorAmongAnswered: number;
  /** Share of in-scope questions answered with the right entry. */
  answeredCorrect: number;
  /** Share of out-of-scope questions escalated (confidence < threshold); NaN without any. */
  outOfScopeRecall: number;
}

export interface Evaluation {
  questions: number;
  accuracy: number;
  calibrationError: number;
  thresholds: AtThreshold[];
  /** Mean time per prediction, µs. */
  predictMicros: number;
}

export function evaluate(model: EmbeddedModel, inScope: readonly Example[], outOfScope: readonly Example[] = [], thresholds: readonly number[] = THRESHOLDS): Evaluation {
  const confidences: number[] = [];
  const correct: boolean[] = [];
  const started = performance.now();
  for (const { text, label } of inScope) {
    const p = model.predict(text);
    confidences.push(p?.confidence ?? 0);
    correct.push(p?.entryId === label);
  }
  const oos = outOfScope.map(({ text }) => model.predict(text)?.confidence ?? 0);
  const predictMicros = ((performance.now() - started) * 1000) / Math.max(1, inScope.length + outOfScope.length);
  const n = inScope.length;
  return {
    questions: n,
    accuracy: correct.filter(Boolean).length / n,
    calibrationError: expectedCalibrationError(confidences, correct, 15),
    predictMicros,
    thresholds: thresholds.map((threshold) => {
      const { answered, wrong } = answeredAt(confidences, correct, threshold);
      return {
        threshold,
        answered: answered / n,
        errorAmongAnswered: answered ? wrong / answered : 0,
        answeredCorrect: (answered - wrong) / n,
        outOfScopeRecall: oos.length ? oos.filter((c) => c < threshold).length / oos.length : Number.NaN,
      };
    }),
  };
}

/** How many predictions reach `threshold` (answered) and how many of those are wrong. */
export function answeredAt(confidences: readonly number[], correct: readonly boolean[], threshold: number): { answered: number; wrong: number } {
  let answered = 0;
  let wrong = 0;
  confidences.forEach((c, i) => {
    if (c >= threshold) {
      answered++;
      if (!correct[i]) wrong++;
    }
  });
  return { answered, wrong };
}

export const pct = (x: number, digits = 1) => (Number.isFinite(x) ? `${(x * 100).toFixed(digits)} %` : '–');
