/** Small statistics and formatting helpers shared by the bench groups. */

/** Nearest-rank percentile (p in 0..100) of unsorted samples; NaN when there are none. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export function median(samples: readonly number[]): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function min(samples: readonly number[]): number {
  return samples.length ? Math.min(...samples) : Number.NaN;
}

export function max(samples: readonly number[]): number {
  return samples.length ? Math.max(...samples) : Number.NaN;
}

/** A number with sensible precision: 3 significant digits below 100, grouped integers above. */
export function num(value: number, digits?: number): string {
  if (!Number.isFinite(value)) return '–';
  if (digits !== undefined) return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  const abs = Math.abs(value);
  if (abs >= 100) return Math.round(value).toLocaleString('en-US');
  if (abs >= 10) return value.toFixed(1);
  if (abs >= 1) return value.toFixed(2);
  return value.toPrecision(2);
}

export function ms(value: number): string {
  return `${num(value)} ms`;
}

/** Milliseconds as seconds, two decimals. */
export function seconds(valueMs: number): string {
  return `${num(valueMs / 1000, 2)} s`;
}

export function kb(bytes: number): string {
  return `${num(bytes / 1024, 1)} KB`;
}

/** "1.62 s (1.55–1.80, n=5)": the median with the spread, so noise is visible. */
export function medianSeconds(samplesMs: readonly number[]): string {
  if (samplesMs.length === 1) return `${seconds(samplesMs[0]!)} (n=1)`;
  return `${seconds(median(samplesMs))} (${num(min(samplesMs) / 1000, 2)}–${num(max(samplesMs) / 1000, 2)}, n=${samplesMs.length})`;
}

/** "p50 / p95 / p99" in one cell. */
export function tail(samples: readonly number[]): string {
  return `${num(percentile(samples, 50))} / ${num(percentile(samples, 95))} / ${num(percentile(samples, 99))} ms`;
}

export const sleep = (delayMs: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, delayMs));
