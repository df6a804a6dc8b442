import { defineRecurring } from '../../jobs/schedule';

/**
 * The daily report: at 07:00 UTC, the UTC day before, to every administrator with Daily Reports on.
 * A run's payload names the day it runs on (`{ period: '2026-11-28' }` reports 27 November).
 */
export const dailyReportJob = defineRecurring({
  name: 'report-emails.daily',
  every: 'day',
  atMinute: 7 * 60,
  maxAttempts: 5,
  backoffMs: 60_000,
  maxBackoffMs: 30 * 60_000,
  timeoutMs: 10 * 60_000,
});

/**
 * The weekly report: Mondays at 07:00 UTC, the ISO week before (Monday to Sunday, UTC), to everyone
 * with Weekly Reports on. A run's payload names the week it runs in (`2026-W49` reports `2026-W48`).
 */
export const weeklyReportJob = defineRecurring({
  name: 'report-emails.weekly',
  every: 'week',
  atMinute: 7 * 60,
  maxAttempts: 5,
  backoffMs: 60_000,
  maxBackoffMs: 30 * 60_000,
  timeoutMs: 10 * 60_000,
});
