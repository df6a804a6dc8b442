/** Placeholder until eval/fit-word-metric.ts --write runs. */
import type { WordMetricJson } from './word-metric';

export const SHIPPED_WORD_METRIC: WordMetricJson = { format: 'parley.word-metric.v1', vectors: '', dimension: 0, fittedOn: '', options: { alpha: 0.3 }, matrix: '' };
