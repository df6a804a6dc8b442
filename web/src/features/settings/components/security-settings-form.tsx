import { ShieldCheck } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import type { SecuritySettings } from '@common/api/security';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { fieldA11y, FieldError } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { errorMessage, isApiError } from '@/lib/api-client';
import { useCurrentUser } from '@/lib/session';
import { useSecuritySettings, useUpdateSecuritySettings } from '../api/security-settings';
import { type LifetimeUnit, parseLifetime, splitLifetime } from '../lib/session-lifetime';

function SettingsForm({ initial }: { initial: SecuritySettings }) {
  const user = useCurrentUser();
  const update = useUpdateSecuritySettings();
  const [requireTwoFactor, setRequireTwoFactor] = useState(initial.requireTwoFactorForStaff);
  const [amount, setAmount] = useState(() => splitLifetime(initial.sessionLifetimeHours).amount);
  const [unit, setUnit] = useState<LifetimeUnit>(() => splitLifetime(initial.sessionLifetimeHours).unit);
  const [lifetimeError, setLifetimeError] = useState<string | undefined>();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const lifetime = parseLifetime(amount, unit);
    if ('error' in lifetime) {
      setLifetimeError(lifetime.error);
      return;
    }
    setLifetimeError(undefined);
    update.mutate(
      { requireTwoFactorForStaff: requireTwoFactor, sessionLifetimeHours: lifetime.hours },
      {
        onSuccess: () => toast.success('Settings Saved'),
        onError: (error) => {
          const field = isApiError(error) ? error.fields?.['sessionLifetimeHours'] : undefined;
          if (field) setLifetimeError(field);
          toast.error('Update Failed', { description: errorMessage(error, 'The security settings could not be saved.') });
        },
      },
    );
  };

  const shorter = (() => {
    const lifetime = parseLifetime(amount, unit);
    return 'hours' in lifetime && lifetime.hours < initial.sessionLifetimeHours;
  })();

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-5">
      <div className="flex items-center justify-between gap-4 rounded-lg border p-3">
        <div className="grid min-w-0 gap-1">
          <Label htmlFor="require-two-factor">Require two-factor authentication for admins and managers</Label>
          <p id="require-two-factor-description" className="text-xs text-muted-foreground">
            An admin or manager without it is asked to set it up when they next use Parley, and can do nothing else until it is on.
          </p>
        </div>
        <Switch
          id="require-two-factor"
          aria-describedby="require-two-factor-description"
          checked={requireTwoFactor}
          onCheckedChange={setRequireTwoFactor}
        />
      </div>
      {requireTwoFactor && !user.mfaEnabled ? (
        <Alert>
          <ShieldCheck aria-hidden />
          <AlertDescription>You have not set up two-factor authentication yet: once this is saved, Parley asks you to first.</AlertDescription>
        </Alert>
      ) : null}

      <div className="grid gap-2">
        <Label htmlFor="session-lifetime">Session lifetime</Label>
        <div className="flex flex-wrap gap-2">
          <Input
            {...fieldA11y('session-lifetime', lifetimeError, true)}
            inputMode="numeric"
            className="w-28"
            value={amount}
            onChange={(event) => setAmount(event.target.value)}
          />
          <Select value={unit} onValueChange={(value) => setUnit(value === 'hours' ? 'hours' : 'days')}>
            <SelectTrigger className="w-32" aria-label="Unit">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value="hours">Hours</SelectItem>
              <SelectItem value="days">Days</SelectItem>
            </SelectContent>
          </Select>
        </div>
        <p id="session-lifetime-description" className="text-xs text-muted-foreground">
          A session ends after this long without use, and is renewed while in use. From 1 hour to 30 days; Parley&apos;s default is 7
          days.{shorter ? ' Saving a shorter lifetime also shortens the sessions already open.' : ''}
        </p>
        {lifetimeError ? <FieldError id="session-lifetime-error">{lifetimeError}</FieldError> : null}
      </div>

      <div>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? 'Saving...' : 'Save Settings'}
        </Button>
      </div>
    </form>
  );
}

/** Admin Settings → Security: the two-factor requirement and the session lifetime (docs/admin-settings.md). */
export function SecuritySettingsCard() {
  const settings = useSecuritySettings();
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ShieldCheck aria-hidden className="size-4 text-primary" />
          Sign-in Security
        </CardTitle>
        <CardDescription>Rules for every account. Each change is recorded in the audit log below.</CardDescription>
      </CardHeader>
      <CardContent>
        {settings.isPending ? (
          <div className="grid gap-3" aria-label="Loading security settings">
            <Skeleton className="h-14" />
            <Skeleton className="h-14" />
          </div>
        ) : settings.isError ? (
          <p className="text-sm text-muted-foreground">{errorMessage(settings.error, 'The security settings could not be loaded.')}</p>
        ) : (
          <SettingsForm initial={settings.data} />
        )}
      </CardContent>
    </Card>
  );
}
