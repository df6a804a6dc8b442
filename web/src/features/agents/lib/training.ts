/** What the training status says, and when the screens poll for it. */
import type { TrainingView } from '@common/api/agents';
import { formatPercent } from './agent-form';

/** Queued or training: the screens poll every second until it settles. */
export function isTrainingActive(training: TrainingView | undefined): boolean {
  return training?.status === 'queued' || training?.status === 'training';
}

export type TrainingTone = 'live' | 'busy' | 'failed' | 'none';

export interface TrainingSummary {
  tone: TrainingTone;
  /** Short, for a badge. */
  label: string;
  /** One sentence, for the status card. */
  text: string;
}

/** `formatTime` turns liveAt into words ("Mar 3, 2025, 14:05"), injected so tests stay independent of the locale. */
export function trainingSummary(training: TrainingView, formatTime: (iso: string) => string): TrainingSummary {
  const live = training.liveAt !== null ? `Live since ${formatTime(training.liveAt)}` : null;
  switch (training.status) {
    case 'queued':
      return { tone: 'busy', label: 'Queued', text: `Waiting to train version ${training.knowledgeVersion}${live ? `; ${lowerFirst(live)}` : ''}.` };
    case 'training':
      return {
        tone: 'busy',
        label: `Training ${formatPercent(training.progress)}`,
        text: `Training version ${training.knowledgeVersion}: ${formatPercent(training.progress)}${live ? `; ${lowerFirst(live)}` : ''}.`,
      };
    case 'failed':
      return {
        tone: 'failed',
        label: 'Training failed',
        text: `Training failed${training.error ? `: ${training.error}` : '.'}${live ? ` ${live} (version ${training.liveVersion ?? '—'}).` : ''}`,
      };
    case 'idle':
      if (live !== null) return { tone: 'live', label: 'Live', text: `${live} (version ${training.liveVersion ?? '—'}).` };
      return { tone: 'none', label: 'Not trained', text: 'Not trained yet: add FAQ entries or articles and the agent trains on them.' };
  }
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** "12 entries · 48 example questions · 92% accuracy" for the live version's metrics. */
export function metricsText(metrics: TrainingView['metrics']): string | null {
  if (metrics === null) return null;
  const parts = [plural(metrics.entries, 'entry', 'entries'), plural(metrics.examples, 'example question', 'example questions')];
  if (metrics.accuracy !== null) parts.push(`${formatPercent(metrics.accuracy)} accuracy`);
  return parts.join(' · ');
}

export function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** The progress bar's value in percent (0–100). */
export function progressPercent(training: TrainingView): number {
  if (training.status === 'queued') return 0;
  return Math.max(0, Math.min(100, Math.round(training.progress * 100)));
}
