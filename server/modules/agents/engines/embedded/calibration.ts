/**
 * Confidence = P(the predicted entry is right), from two signals of a prediction:
 *
 *   - the classifier's own log-odds for its top class, log(p₁ / (1 − p₁));
 *   - the cosine between the question and the nearest training question of that class.
 *
 * A logistic regression on [log-odds, similarity, 1] is fitted on held-out predictions (cross-
 * validation over the knowledge base's own questions), i.e. Platt scaling with a second input.
 * The fit is a MAP estimate around a prior (tuned on public validation data), so a knowledge base
 * with a few dozen questions gets sensible confidences instead of a degenerate fit.
 */

export interface ConfidenceSignals {
  /** log(p₁ / (1 − p₁)) of the classifier's top class, clipped to ±20. */
  logOdds: number;
  /** Cosine to the nearest training question of the predicted class (0..1). */
  similarity: number;
}

/** confidence = σ(logOdds·w[0] + similarity·w[1] + w[2]). */
export interface Calibrator {
  weights: [number, number, number];
}

export interface CalibrationSample extends ConfidenceSignals {
  correct: boolean;
  /** Importance of the sample in the fit (default 1). */
  weight?: number;
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

function inputs(s: ConfidenceSignals): [number, number, number] {
  return [s.logOdds, s.similarity, 1];
}

export function confidenceOf(signals: ConfidenceSignals, calibrator: Calibrator): number {
  const x = inputs(signals);
  const w = calibrator.weights;
  return sigmoid(w[0] * x[0] + w[1] * x[1] + w[2] * x[2]);
}

export function logOddsOf(p: number): number {
  const clipped = Math.min(1 - 1e-9, Math.max(1e-9, p));
  return Math.max(-20, Math.min(20, Math.log(clipped / (1 - clipped))));
}

/**
 * Newton's method on the weighted log-likelihood plus a Gaussian prior centred on `prior`
 * (precision `priorStrength`, in units of samples).
 */
export function fitCalibrator(samples: readonly CalibrationSample[], prior: Calibrator, priorStrength: number): Calibrator {
  const objective = (w: readonly number[]): number => {
    let loss = 0;
    for (let j = 0; j < 3; j++) loss += 0.5 * priorStrength * (w[j]! - prior.weights[j]!) ** 2;
    for (const s of samples) {
      const x = inputs(s);
      const t = w[0]! * x[0] + w[1]! * x[1] + w[2]! * x[2];
      // −log σ(±t), computed without overflow.
      const m = s.correct ? -t : t;
      loss += (s.weight ?? 1) * (m > 0 ? m + Math.log1p(Math.exp(-m)) : Math.log1p(Math.exp(m)));
    }
    return loss;
  };
  let w = [...prior.weights];
  let current = objective(w);
  for (let iteration = 0; iteration < 100; iteration++) {
    const g = [0, 0, 0];
    const h = [
      [0, 0, 0],
      [0, 0, 0],
      [0, 0, 0],
    ];
    for (let j = 0; j < 3; j++) {
      g[j] = priorStrength * (w[j]! - prior.weights[j]!);
      h[j]![j] = priorStrength + 1e-9;
    }
    for (const s of samples) {
      const x = inputs(s);
      const p = sigmoid(w[0]! * x[0] + w[1]! * x[1] + w[2]! * x[2]);
      const sw = s.weight ?? 1;
      const r = (p - (s.correct ? 1 : 0)) * sw;
      const q = Math.max(p * (1 - p), 1e-12) * sw;
      for (let j = 0; j < 3; j++) {
        g[j]! += r * x[j]!;
        for (let k = 0; k < 3; k++) h[j]![k]! += q * x[j]! * x[k]!;
      }
    }
    const delta = solve3(h, g);
    // Damped Newton: halve the step until the objective does not increase.
    let step = 1;
    let next = w;
    let value = current;
    for (let tries = 0; tries < 40; tries++, step /= 2) {
      const candidate = w.map((v, j) => v - step * delta[j]!);
      const candidateValue = objective(candidate);
      if (candidateValue <= current) {
        next = candidate;
        value = candidateValue;
        break;
      }
    }
    const moved = Math.max(...next.map((v, j) => Math.abs(v - w[j]!)));
    w = next;
    const improved = current - value;
    current = value;
    if (moved < 1e-9 || improved < 1e-12 * Math.max(1, Math.abs(current))) break;
  }
  return { weights: [w[0]!, w[1]!, w[2]!] };
}

/** Gaussian elimination with partial pivoting for the 3×3 Newton step. */
function solve3(a: number[][], b: number[]): number[] {
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let col = 0; col < 3; col++) {
    let pivot = col;
    for (let r = col + 1; r < 3; r++) if (Math.abs(m[r]![col]!) > Math.abs(m[pivot]![col]!)) pivot = r;
    [m[col], m[pivot]] = [m[pivot]!, m[col]!];
    const d = m[col]![col]!;
    if (Math.abs(d) < 1e-15) return [0, 0, 0];
    for (let r = 0; r < 3; r++) {
      if (r === col) continue;
      const f = m[r]![col]! / d;
      for (let c = col; c < 4; c++) m[r]![c]! -= f * m[col]![c]!;
    }
  }
  return [m[0]![3]! / m[0]![0]!, m[1]![3]! / m[1]![1]!, m[2]![3]! / m[2]![2]!];
}

/**
 * Expected calibration error: predictions binned by confidence into `bins` equal-width bins, the
 * size-weighted mean of |accuracy − mean confidence| per bin.
 */
export function expectedCalibrationError(confidences: readonly number[], correct: readonly boolean[], bins = 15): number {
  const n = confidences.length;
  if (n === 0) return 0;
  const count = new Array<number>(bins).fill(0);
  const sumConfidence = new Array<number>(bins).fill(0);
  const sumCorrect = new Array<number>(bins).fill(0);
  confidences.forEach((c, i) => {
    const b = Math.min(bins - 1, Math.max(0, Math.ceil(c * bins) - 1));
    count[b]!++;
    sumConfidence[b]! += c;
    if (correct[i]) sumCorrect[b]!++;
  });
  let ece = 0;
  for (let b = 0; b < bins; b++) if (count[b]) ece += Math.abs(sumCorrect[b]! - sumConfidence[b]!) / n;
  return ece;
}
