/** The charts' colours, from the theme (index.css), in the order series and slices take them. */
export const CHART_COLORS = [
  'var(--primary)',
  'var(--success)',
  'var(--warning)',
  'oklch(0.7 0.14 220)',
  'var(--destructive)',
  'oklch(0.75 0.13 330)',
] as const;

export function chartColor(index: number): string {
  return CHART_COLORS[index % CHART_COLORS.length] ?? 'var(--primary)';
}
