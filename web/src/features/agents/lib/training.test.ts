import { describe, expect, it } from 'vitest';
import type { TrainingView } from '@common/api/agents';
import { isTrainingActive, metricsText, progressPercent, trainingSummary } from './training';

const base: TrainingView = {
  status: 'idle',
  progress: 0,
  knowledgeVersion: 3,
  liveVersion: 3,
  liveAt: '2025-03-04T10:00:00Z',
  error: null,
  metrics: { entries: 12, examples: 48, trainingMs: 350, accuracy: 0.917 },
};
const at = (iso: string) => `<${iso}>`;

describe('training status', () => {
  it('polls only while queued or training', () => {
    expect(isTrainingActive({ ...base, status: 'queued' })).toBe(true);
    expect(isTrainingActive({ ...base, status: 'training' })).toBe(true);
    expect(isTrainingActive(base)).toBe(false);
    expect(isTrainingActive({ ...base, status: 'failed' })).toBe(false);
    expect(isTrainingActive(undefined)).toBe(false);
  });

  it('says since when the live version answers', () => {
    expect(trainingSummary(base, at)).toEqual({ tone: 'live', label: 'Live', text: 'Live since <2025-03-04T10:00:00Z> (version 3).' });
  });

  it('shows the progress while training and what stays live meanwhile', () => {
    const s = trainingSummary({ ...base, status: 'training', progress: 0.456, knowledgeVersion: 4 }, at);
    expect(s.label).toBe('Training 46%');
    expect(s.text).toBe('Training version 4: 46%; live since <2025-03-04T10:00:00Z>.');
    expect(trainingSummary({ ...base, status: 'queued', knowledgeVersion: 4, liveAt: null, liveVersion: null }, at).text).toBe(
      'Waiting to train version 4.',
    );
  });

  it('gives the error of a failed training', () => {
    const s = trainingSummary({ ...base, status: 'failed', error: 'No example questions', knowledgeVersion: 4 }, at);
    expect(s.tone).toBe('failed');
    expect(s.text).toBe('Training failed: No example questions Live since <2025-03-04T10:00:00Z> (version 3).');
    expect(trainingSummary({ ...base, status: 'failed', liveAt: null, liveVersion: null }, at).text).toBe('Training failed.');
  });

  it('says so when nothing was trained yet', () => {
    expect(trainingSummary({ ...base, liveAt: null, liveVersion: null, metrics: null }, at).tone).toBe('none');
  });

  it('names the metrics and the progress in percent', () => {
    expect(metricsText(base.metrics)).toBe('12 entries · 48 example questions · 92% accuracy');
    expect(metricsText({ entries: 1, examples: 1, trainingMs: 1, accuracy: null })).toBe('1 entry · 1 example question');
    expect(metricsText(null)).toBeNull();
    expect(progressPercent({ ...base, status: 'training', progress: 0.5 })).toBe(50);
    expect(progressPercent({ ...base, status: 'queued', progress: 0.5 })).toBe(0);
  });
});
