/** A sentiment score (-1 very negative … 1 very positive) as the label the screens show. */
export type SentimentLabel = 'positive' | 'neutral' | 'negative';

export function sentimentLabel(score: number | null): SentimentLabel | null {
  if (score === null || !Number.isFinite(score)) return null;
  if (Math.abs(score) < 0.2) return 'neutral';
  return score > 0 ? 'positive' : 'negative';
}
