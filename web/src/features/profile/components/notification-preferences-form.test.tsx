import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DEFAULT_NOTIFICATION_PREFERENCES } from '@common/api/me';
import type { Role } from '@common/roles';
import { setSessionUser } from '@/lib/session';
import { profileKeys } from '../api/keys';
import { NotificationPreferencesCard } from './notification-preferences-form';

const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/gu, ' ')
    .replace(/&#x27;/gu, "'")
    .replace(/\s+/gu, ' ')
    .trim();

/** The card as `role` sees it, with the stored preferences loaded. */
function render(role: Role): string {
  setSessionUser({
    id: '6f1c2a40-0000-4b5e-9a51-5a7e1e000001',
    email: 'someone@parley.test',
    name: 'Sam Someone',
    role,
    avatarUrl: null,
    phone: null,
    company: null,
    clientId: role === 'client' ? '6f1c2a40-0000-4b5e-9a51-5a7e1e000002' : null,
    emailVerified: true,
    mfaEnabled: false,
    createdAt: '2026-11-27T10:00:00.000Z',
    lastLogin: null,
  });
  const client = new QueryClient();
  client.setQueryData(profileKeys.notificationPreferences, { ...DEFAULT_NOTIFICATION_PREFERENCES, dailyReports: true });
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <NotificationPreferencesCard />
    </QueryClientProvider>,
  );
}

describe('notification preferences', () => {
  it('offers administrators the daily report, e-mailed every morning, and the weekly one across every client', () => {
    const text = textOf(render('admin'));
    expect(text).toContain('Daily Reports A summary of yesterday across every client, e-mailed every morning.');
    expect(text).toContain('Weekly Reports A summary of last week across every client, e-mailed every Monday.');
  });

  it('offers a client user the weekly report of their own business only, and no daily report', () => {
    const html = render('client');
    expect(textOf(html)).toContain("Weekly Reports A summary of your business's last week, e-mailed every Monday.");
    expect(html).not.toContain('Daily Reports');
    expect(html).not.toContain('pref-dailyReports');
  });

  it('offers managers the weekly report across every client, and no daily report', () => {
    const html = render('manager');
    expect(textOf(html)).toContain('Weekly Reports A summary of last week across every client, e-mailed every Monday.');
    expect(html).not.toContain('Daily Reports');
  });
});
