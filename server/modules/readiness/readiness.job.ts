import { defineRecurring } from '../../jobs/schedule';

/**
 * The daily readiness check (issue 16 §4): once a day across every instance (server/jobs/schedule.ts),
 * at 06:00 UTC, before the working day; a drop since the run before notifies the administrators.
 */
export const readinessDailyJob = defineRecurring({
  name: 'readiness.daily',
  every: 'day',
  atMinute: 6 * 60,
  maxAttempts: 3,
  backoffMs: 60_000,
  timeoutMs: 120_000,
});
