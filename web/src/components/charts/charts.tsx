/**
 * The drawings of the pages of figures (recharts, about 100 KB): this module is imported only through `lazy-charts.ts`,
 * so the library loads after the figures are on screen and never with the app's main bundle.
 * Every drawing is hidden from screen readers and out of the tab order (no accessibility layer, no
 * focusable slices); its ChartFigure carries the same data as a table.
 */
import type { CSSProperties } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, Pie, PieChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

export interface ChartSeries {
  key: string;
  label: string;
  color: string;
}

export type ChartDatum = Record<string, string | number | null>;

const AXIS_TICK = { fill: 'var(--muted-foreground)', fontSize: 12 } as const;
const TOOLTIP_STYLE: CSSProperties = {
  background: 'var(--popover)',
  border: '1px solid var(--border)',
  borderRadius: 8,
  color: 'var(--popover-foreground)',
  fontSize: 12,
};
const LEGEND_STYLE: CSSProperties = { fontSize: 12, color: 'var(--muted-foreground)' };

const ANIMATION_MS = 600;
const reducedMotion = () => typeof window !== 'undefined' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

const shorten = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

function formatted(format: ((value: number) => string) | undefined) {
  return (value: unknown) => (typeof value === 'number' && format ? format(value) : String(value));
}

/** Bars, one group per category; `horizontal` lays the categories down the side (long names, many rows). */
export function BarsChart({
  data,
  categoryKey,
  series,
  format,
  horizontal = false,
}: {
  data: readonly ChartDatum[];
  categoryKey: string;
  series: readonly ChartSeries[];
  format?: (value: number) => string;
  horizontal?: boolean;
}) {
  const animate = !reducedMotion();
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart
        data={[...data]}
        layout={horizontal ? 'vertical' : 'horizontal'}
        margin={{ top: 8, right: 12, bottom: 0, left: 0 }}
        accessibilityLayer={false}
      >
        <CartesianGrid stroke="var(--border)" vertical={horizontal} horizontal={!horizontal} />
        {horizontal ? (
          <>
            <XAxis type="number" allowDecimals={false} tick={AXIS_TICK} stroke="var(--border)" tickFormatter={formatted(format)} />
            <YAxis
              type="category"
              dataKey={categoryKey}
              width={110}
              tick={AXIS_TICK}
              stroke="var(--border)"
              interval={0}
              tickFormatter={(value: unknown) => shorten(String(value), 16)}
            />
          </>
        ) : (
          <>
            <XAxis dataKey={categoryKey} tick={AXIS_TICK} stroke="var(--border)" />
            <YAxis allowDecimals={false} width={40} tick={AXIS_TICK} stroke="var(--border)" tickFormatter={formatted(format)} />
          </>
        )}
        <Tooltip contentStyle={TOOLTIP_STYLE} cursor={{ fill: 'var(--accent)', opacity: 0.4 }} formatter={formatted(format)} />
        {series.length > 1 ? <Legend wrapperStyle={LEGEND_STYLE} /> : null}
        {series.map((s) => (
          <Bar
            key={s.key}
            dataKey={s.key}
            name={s.label}
            fill={s.color}
            radius={4}
            maxBarSize={36}
            isAnimationActive={animate}
            animationDuration={ANIMATION_MS}
          />
        ))}
      </BarChart>
    </ResponsiveContainer>
  );
}

/** Lines over the categories (months); a null is a gap, not a zero. */
export function LinesChart({
  data,
  categoryKey,
  series,
  format,
  domain,
}: {
  data: readonly ChartDatum[];
  categoryKey: string;
  series: readonly ChartSeries[];
  format?: (value: number) => string;
  domain?: [number, number];
}) {
  const animate = !reducedMotion();
  return (
    <ResponsiveContainer width="100%" height="100%">
      <LineChart data={[...data]} margin={{ top: 8, right: 12, bottom: 0, left: 0 }} accessibilityLayer={false}>
        <CartesianGrid stroke="var(--border)" vertical={false} />
        <XAxis dataKey={categoryKey} tick={AXIS_TICK} stroke="var(--border)" />
        <YAxis width={48} tick={AXIS_TICK} stroke="var(--border)" tickFormatter={formatted(format)} {...(domain ? { domain } : {})} />
        <Tooltip contentStyle={TOOLTIP_STYLE} formatter={formatted(format)} />
        {series.length > 1 ? <Legend wrapperStyle={LEGEND_STYLE} /> : null}
        {series.map((s) => (
          <Line
            key={s.key}
            type="monotone"
            dataKey={s.key}
            name={s.label}
            stroke={s.color}
            strokeWidth={2}
            dot={{ r: 3, fill: s.color }}
            connectNulls={false}
            isAnimationActive={animate}
            animationDuration={ANIMATION_MS}
          />
        ))}
      </LineChart>
    </ResponsiveContainer>
  );
}

/** Shares of a whole, each slice in its own colour (`fill` of its datum), named in the legend. */
export function SharesChart({ data }: { data: readonly { name: string; value: number; fill: string }[] }) {
  const animate = !reducedMotion();
  return (
    <ResponsiveContainer width="100%" height="100%">
      <PieChart accessibilityLayer={false}>
        <Pie
          data={[...data]}
          dataKey="value"
          nameKey="name"
          innerRadius="45%"
          outerRadius="75%"
          paddingAngle={data.length > 1 ? 2 : 0}
          stroke={data.length > 1 ? 'var(--card)' : 'none'}
          rootTabIndex={-1}
          isAnimationActive={animate}
          animationDuration={ANIMATION_MS}
        />
        <Tooltip contentStyle={TOOLTIP_STYLE} />
        <Legend wrapperStyle={LEGEND_STYLE} />
      </PieChart>
    </ResponsiveContainer>
  );
}
