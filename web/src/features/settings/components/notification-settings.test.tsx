import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { DEFAULT_NOTIFICATION_PREFERENCES, type NotificationPreferences } from '@common/api/me';
import { notificationPreferencesKey } from '@/lib/api/notification-preferences';
import { NotificationSettings } from './notification-settings';

const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/gu, ' ')
    .replace(/&#x27;/gu, "'")
    .replace(/\s+/gu, ' ')
    .trim();

function render(preferences: NotificationPreferences): string {
  const client = new QueryClient();
  client.setQueryData(notificationPreferencesKey, preferences);
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <NotificationSettings />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

/** Whether the switch with this id is on in the markup. */
function isOn(html: string, id: string): boolean {
  const tag = new RegExp(`<button[^>]*id="${id}"[^>]*>`, 'u').exec(html)?.[0];
  if (!tag) throw new Error(`no switch ${id}`);
  return tag.includes('aria-checked="true"');
}

describe('Admin Settings → Notifications', () => {
  it("shows the spec's four switches in its order, with the stored values", () => {
    const html = render({ ...DEFAULT_NOTIFICATION_PREFERENCES, escalations: false, dailyReports: true });
    const text = textOf(html);
    const order = ['Escalations', 'Low Confidence', 'Daily Reports', 'Error Alerts'].map((label) => text.indexOf(label));
    expect(order.every((position) => position >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(isOn(html, 'admin-pref-escalations')).toBe(false);
    expect(isOn(html, 'admin-pref-lowConfidence')).toBe(true);
    expect(isOn(html, 'admin-pref-dailyReports')).toBe(true);
    expect(isOn(html, 'admin-pref-errorAlerts')).toBe(true);
    expect(text).toContain('Save Settings');
  });

  it('does not offer the profile’s own switches here', () => {
    const html = render(DEFAULT_NOTIFICATION_PREFERENCES);
    expect(html).not.toContain('emailNotifications');
    expect(html).not.toContain('weeklyReports');
  });
});
