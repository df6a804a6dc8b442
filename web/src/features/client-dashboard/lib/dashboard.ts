/**
 * How the client dashboard writes what the server sends (docs/client-dashboard.md). Nothing here
 * invents a value: a figure the server sends as null is written "—" by lib/figures.
 */
import type { BusinessHours } from '@common/api/agents';
import type { ClientDashboardView, DashboardConversationStatus } from '@common/api/client-dashboard';
import type { SubscriptionStatus } from '@common/api/offers';
import { describeBusinessHours } from '@/lib/business-hours';

/** The header's badge (spec: 'Active Subscription'), from the status the server decided. */
export const SUBSCRIPTION_BADGE: Record<SubscriptionStatus, { label: string; variant: 'success' | 'warning' | 'destructive' }> = {
  active: { label: 'Active Subscription', variant: 'success' },
  paused: { label: 'Paused', variant: 'warning' },
  past_due: { label: 'Past Due', variant: 'destructive' },
};
export const NO_PLAN_BADGE = 'No subscription';

export const CONVERSATION_STATUS_LABEL: Record<DashboardConversationStatus, string> = { resolved: 'Resolved', active: 'Active', lead: 'Lead' };

/** "Last 30 days (Mar 2 – Mar 31, UTC)". */
export function periodText(period: ClientDashboardView['period']): string {
  const day = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });
  const at = (d: string) => day.format(new Date(`${d}T00:00:00Z`));
  return `Last ${period.days} days (${at(period.from)} – ${at(period.to)}, UTC)`;
}

/** "Mar 2" for a chart's axis. */
export function dayLabel(day: string): string {
  return new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));
}

const WEEKDAYS_MON_FRI = [1, 2, 3, 4, 5];

/**
 * The agent's business hours as the Automation Settings tab says them: the spec's 'Mon-Fri
 * 9AM-6PM' exactly when that is what is stored (Monday to Friday, 09:00–18:00), else the agents'
 * own wording ("Always on", "Mon–Fri 09:00–17:00 · Sat 10:00–14:00"), with the time zone.
 */
export function businessHoursText(hours: BusinessHours | null): string {
  if (hours === null) return describeBusinessHours(null);
  const days = [...hours.days].sort((a, b) => a.day - b.day);
  const specDefault =
    days.length === WEEKDAYS_MON_FRI.length && days.every((d, i) => d.day === WEEKDAYS_MON_FRI[i] && d.open === '09:00' && d.close === '18:00');
  return specDefault ? `Mon-Fri 9AM-6PM (${hours.timezone})` : describeBusinessHours(hours);
}

/** Whether any day of the period has a figure to draw. */
export function hasActivity(daily: ClientDashboardView['daily']): boolean {
  return daily.some((d) => d.messages > 0 || d.conversations > 0);
}
