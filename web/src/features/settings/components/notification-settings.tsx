import { Bell } from 'lucide-react';
import { Controller, useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { useNotificationPreferences } from '@/lib/api/notification-preferences';
import { errorMessage } from '@/lib/api-client';
import {
  ADMIN_NOTIFICATION_SWITCHES,
  type AdminNotificationSwitch,
  type AdminNotificationSwitches,
  useUpdateNotificationSwitches,
} from '../api/update-notification-switches';

/** What each switch does (docs/admin-settings.md, "Notifications"). */
const SWITCH_TEXT: Record<AdminNotificationSwitch, { label: string; description: string }> = {
  escalations: {
    label: 'Escalations',
    description: 'A conversation is handed to a person because the customer asked for one or the AI agent chose to.',
  },
  lowConfidence: {
    label: 'Low Confidence',
    description: "The AI agent hands a conversation to a person because its confidence was below the agent's threshold.",
  },
  dailyReports: {
    label: 'Daily Reports',
    description: "Yesterday's figures across every client, e-mailed every morning at 07:00 UTC.",
  },
  errorAlerts: {
    label: 'Error Alerts',
    description: 'Background jobs or webhook deliveries keep failing. At most one alert a day for each cause.',
  },
};

function SwitchesForm({ initial }: { initial: AdminNotificationSwitches }) {
  const update = useUpdateNotificationSwitches();
  const form = useForm<AdminNotificationSwitches>({ defaultValues: initial });

  const onSubmit = form.handleSubmit((values) => {
    update.mutate(values, {
      onSuccess: (saved) => {
        toast.success('Settings Saved');
        form.reset({ escalations: saved.escalations, lowConfidence: saved.lowConfidence, dailyReports: saved.dailyReports, errorAlerts: saved.errorAlerts });
      },
      onError: (error) => toast.error('Update Failed', { description: errorMessage(error, 'Your notification settings could not be saved.') }),
    });
  });

  return (
    <form onSubmit={(event) => void onSubmit(event)} className="grid gap-4">
      {ADMIN_NOTIFICATION_SWITCHES.map((key) => (
        <div key={key} className="flex items-center justify-between gap-4 rounded-lg border p-3">
          <div className="grid min-w-0 gap-1">
            <Label htmlFor={`admin-pref-${key}`}>{SWITCH_TEXT[key].label}</Label>
            <p id={`admin-pref-${key}-description`} className="text-xs text-muted-foreground">
              {SWITCH_TEXT[key].description}
            </p>
          </div>
          <Controller
            control={form.control}
            name={key}
            render={({ field }) => (
              <Switch
                id={`admin-pref-${key}`}
                aria-describedby={`admin-pref-${key}-description`}
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
          {update.isPending ? 'Saving...' : 'Save Settings'}
        </Button>
      </div>
    </form>
  );
}

/**
 * Admin Settings → Notifications (spec part 1 §2.17, §3): the four switches, this administrator's
 * own, stored with their notification preferences.
 */
export function NotificationSettings() {
  const preferences = useNotificationPreferences();
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Bell aria-hidden className="size-4 text-primary" />
          Notifications
        </CardTitle>
        <CardDescription>
          What Parley tells you about. Escalations, low confidence and error alerts come in the app, and by e-mail while Email
          Notifications is on in <Link to="/profile?tab=notifications" className="underline underline-offset-2">your profile</Link>; the
          daily report is an e-mail.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {preferences.isPending ? (
          <div className="grid gap-3" aria-label="Loading notification settings">
            <Skeleton className="h-14" />
            <Skeleton className="h-14" />
          </div>
        ) : preferences.isError ? (
          <p className="text-sm text-muted-foreground">{errorMessage(preferences.error, 'Your notification settings could not be loaded.')}</p>
        ) : (
          <SwitchesForm
            initial={{
              escalations: preferences.data.escalations,
              lowConfidence: preferences.data.lowConfidence,
              dailyReports: preferences.data.dailyReports,
              errorAlerts: preferences.data.errorAlerts,
            }}
          />
        )}
      </CardContent>
    </Card>
  );
}
