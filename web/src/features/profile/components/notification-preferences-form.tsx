import { Controller, useForm } from 'react-hook-form';
import { toast } from 'sonner';
import type { NotificationPreferences } from '@common/api/me';
import type { Role } from '@common/roles';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { errorMessage } from '@/lib/api-client';
import { useCurrentUser } from '@/lib/session';
import { useNotificationPreferences, useUpdateNotificationPreferences } from '../api/notification-preferences';

interface PreferenceSwitch {
  key: keyof NotificationPreferences;
  label: string;
  description: string;
}

/**
 * The switches this user has. The reports are e-mailed at 07:00 UTC (docs/insights.md, "Reports by
 * e-mail"): a client user's weekly report covers their own business, staff's every client; the
 * daily report is for administrators.
 */
function switchesFor(role: Role): PreferenceSwitch[] {
  const staff = role !== 'client';
  return [
    { key: 'emailNotifications', label: 'Email Notifications', description: 'Receive notifications by e-mail.' },
    { key: 'messageAlerts', label: 'Message Alerts', description: 'Be told when a conversation needs you.' },
    {
      key: 'weeklyReports',
      label: 'Weekly Reports',
      description: staff
        ? 'A summary of last week across every client, e-mailed every Monday.'
        : "A summary of your business's last week, e-mailed every Monday.",
    },
    ...(role === 'admin'
      ? [{ key: 'dailyReports' as const, label: 'Daily Reports', description: 'A summary of yesterday across every client, e-mailed every morning.' }]
      : []),
    { key: 'securityAlerts', label: 'Security Alerts', description: 'New sign-ins and changes to your account.' },
  ];
}

function PreferencesForm({ initial, switches }: { initial: NotificationPreferences; switches: readonly PreferenceSwitch[] }) {
  const update = useUpdateNotificationPreferences();
  const form = useForm<NotificationPreferences>({ defaultValues: initial });

  const onSubmit = form.handleSubmit((values) => {
    update.mutate(values, {
      onSuccess: (saved) => {
        toast.success('Notification Settings Saved');
        form.reset(saved);
      },
      onError: (error) =>
        toast.error('Update Failed', { description: errorMessage(error, 'Failed to save your notification settings.') }),
    });
  });

  return (
    <form onSubmit={(event) => void onSubmit(event)} className="grid gap-4">
      {switches.map((item) => (
        <div key={item.key} className="flex items-center justify-between gap-4 rounded-lg border p-3">
          <div className="grid gap-1">
            <Label htmlFor={`pref-${item.key}`}>{item.label}</Label>
            <p id={`pref-${item.key}-description`} className="text-xs text-muted-foreground">
              {item.description}
            </p>
          </div>
          <Controller
            control={form.control}
            name={item.key}
            render={({ field }) => (
              <Switch
                id={`pref-${item.key}`}
                aria-describedby={`pref-${item.key}-description`}
                checked={field.value}
                onCheckedChange={field.onChange}
                onBlur={field.onBlur}
                ref={field.ref}
              />
            )}
          />
        </div>
      ))}
      <div>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? 'Saving...' : 'Save Preferences'}
        </Button>
      </div>
    </form>
  );
}

export function NotificationPreferencesCard() {
  const preferences = useNotificationPreferences();
  const { role } = useCurrentUser();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Notification Preferences</CardTitle>
        <CardDescription>Choose what Parley tells you about.</CardDescription>
      </CardHeader>
      <CardContent>
        {preferences.isPending ? (
          <div className="grid gap-3">
            <Skeleton className="h-14" />
            <Skeleton className="h-14" />
          </div>
        ) : preferences.isError ? (
          <p className="text-sm text-muted-foreground">
            {errorMessage(preferences.error, 'Your notification settings could not be loaded.')}
          </p>
        ) : (
          <PreferencesForm initial={preferences.data} switches={switchesFor(role)} />
        )}
      </CardContent>
    </Card>
  );
}
