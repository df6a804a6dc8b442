/** The charts, loaded on demand: recharts stays out of the app's bundle and out of the page's first paint. */
import { lazy } from 'react';

const load = () => import('./charts');

export const BarsChart = lazy(() => load().then((m) => ({ default: m.BarsChart })));
export const LinesChart = lazy(() => load().then((m) => ({ default: m.LinesChart })));
export const SharesChart = lazy(() => load().then((m) => ({ default: m.SharesChart })));
export type { ChartDatum, ChartSeries } from './charts';
