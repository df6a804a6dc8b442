import { Plus, X } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Controller, useFieldArray, useForm, useWatch, type FieldPath } from 'react-hook-form';
import { toast } from 'sonner';
import type { AutomationSettingsView } from '@common/api/client-dashboard';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { FieldError, fieldA11y, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { errorMessage, isApiError } from '@/lib/api-client';
import { browserTimeZone, nextRowFor, rowsOfDay, timeZones, WEEKDAYS } from '@/lib/business-hours';
import { useUpdateAgentSettings } from '../api/update-agent-settings';
import { hoursFormPath, hoursFormResolver, toHoursForm, type HoursBody, type HoursForm } from '../lib/hours-form';

/** Configure: the AI agent's business hours (several ranges a day), its time zone and what happens outside them. */
function HoursFormBody({ clientId, settings, onDone }: { clientId: string; settings: AutomationSettingsView; onDone: () => void }) {
  const update = useUpdateAgentSettings();
  const form = useForm<HoursForm, unknown, HoursBody>({ resolver: hoursFormResolver, defaultValues: toHoursForm(settings, browserTimeZone()) });
  const { control, register, handleSubmit, formState, setError } = form;
  const errors = formState.errors;
  const alwaysOn = useWatch({ control, name: 'alwaysOn' });
  const currentHours = useWatch({ control, name: 'hours' });
  const hours = useFieldArray({ control, name: 'hours' });
  const zones = useMemo(() => timeZones(), []);
  const listError = errors.hours?.message ?? errors.hours?.root?.message;

  const submit = handleSubmit((body) => {
    update.mutate(
      { clientId, businessHours: body.businessHours, outsideHours: body.outsideHours },
      {
        onSuccess: () => {
          toast.success('Settings Saved', { description: 'The business hours of the AI agent were updated.' });
          onDone();
        },
        onError: (error) => {
          if (isApiError(error) && error.fields) {
            for (const [path, message] of Object.entries(error.fields)) setError(hoursFormPath(path) as FieldPath<HoursForm>, { message });
          }
          toast.error('Error', { description: errorMessage(error, 'The business hours could not be saved. Please try again.') });
        },
      },
    );
  });

  return (
    <form onSubmit={(event) => void submit(event)} className="grid gap-4" noValidate>
      <div className="flex items-start justify-between gap-4">
        <div className="grid gap-1">
          <Label htmlFor="hours-always-on">Always on</Label>
          <p id="hours-always-on-description" className="text-sm text-muted-foreground">
            The agent answers at any hour. Turn off to set opening hours.
          </p>
        </div>
        <Controller
          control={control}
          name="alwaysOn"
          render={({ field }) => (
            <Switch id="hours-always-on" aria-describedby="hours-always-on-description" checked={field.value} onCheckedChange={field.onChange} onBlur={field.onBlur} ref={field.ref} />
          )}
        />
      </div>

      {alwaysOn ? null : (
        <>
          <FormField id="hours-timezone" label="Time zone" error={errors.timezone?.message} description="An IANA time zone, e.g. Europe/London.">
            <Input {...fieldA11y('hours-timezone', errors.timezone?.message, true)} list="hours-timezones" autoComplete="off" {...register('timezone')} />
          </FormField>
          <datalist id="hours-timezones">
            {zones.map((zone) => (
              <option key={zone} value={zone} />
            ))}
          </datalist>
          <fieldset className="grid gap-2">
            <legend className="mb-2 text-sm font-medium">Opening hours</legend>
            {WEEKDAYS.map(({ day, label }) => {
              const rows = rowsOfDay(hours.fields, day);
              return (
                <div key={day} className="grid gap-2 border-b pb-2 last:border-b-0 sm:grid-cols-[6rem_1fr_auto] sm:items-start">
                  <span className="pt-2 text-sm font-medium">{label}</span>
                  <div className="grid gap-2">
                    {rows.length === 0 ? <span className="pt-2 text-sm text-muted-foreground">Closed</span> : null}
                    {rows.map(({ row, index }, n) => {
                      const suffix = rows.length > 1 ? ` (${n + 1})` : '';
                      const rowErrors = errors.hours?.[index];
                      const message = rowErrors?.open?.message ?? rowErrors?.close?.message ?? rowErrors?.day?.message;
                      return (
                        <div key={hours.fields[index]?.id ?? `${row.day}-${index}`} className="grid gap-1">
                          <div className="flex items-center gap-2">
                            <Input type="time" aria-label={`${label} opens${suffix}`} aria-invalid={rowErrors?.open ? true : undefined} className="w-28 min-w-0" {...register(`hours.${index}.open`)} />
                            <span aria-hidden>–</span>
                            <Input type="time" aria-label={`${label} closes${suffix}`} aria-invalid={rowErrors?.close ? true : undefined} className="w-28 min-w-0" {...register(`hours.${index}.close`)} />
                            <Button type="button" variant="ghost" size="icon" aria-label={`Remove ${label} hours${suffix}`} onClick={() => hours.remove(index)}>
                              <X aria-hidden />
                            </Button>
                          </div>
                          {message ? <FieldError>{message}</FieldError> : null}
                        </div>
                      );
                    })}
                  </div>
                  <Button type="button" variant="outline" size="sm" aria-label={`Add ${label} hours`} onClick={() => hours.append(nextRowFor(currentHours, day))}>
                    <Plus aria-hidden />
                    Add hours
                  </Button>
                </div>
              );
            })}
            {listError ? <FieldError>{listError}</FieldError> : null}
          </fieldset>
        </>
      )}

      <FormField id="hours-outside" label="Outside business hours" error={errors.outsideHours?.message}>
        <Controller
          control={control}
          name="outsideHours"
          render={({ field }) => (
            <Select value={field.value} onValueChange={field.onChange}>
              <SelectTrigger id="hours-outside" className="w-full">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value="answer">Keep answering</SelectItem>
                <SelectItem value="away">Send the away message and leave it to the team</SelectItem>
              </SelectContent>
            </Select>
          )}
        />
      </FormField>

      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? 'Saving…' : 'Save'}
        </Button>
      </DialogFooter>
    </form>
  );
}

export function BusinessHoursDialog({ clientId, settings }: { clientId: string; settings: AutomationSettingsView }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm">
          Configure
        </Button>
      </DialogTrigger>
      <DialogContent className="sm:max-w-xl">
        <DialogHeader>
          <DialogTitle>Business hours</DialogTitle>
          <DialogDescription>When the AI agent is open for your customers, and what it does outside those hours.</DialogDescription>
        </DialogHeader>
        {/* A new form each time it opens: it starts from what is stored. */}
        {open ? <HoursFormBody clientId={clientId} settings={settings} onDone={() => setOpen(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}
