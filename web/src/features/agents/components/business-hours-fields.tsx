import { Plus, X } from 'lucide-react';
import { useMemo } from 'react';
import { Controller, useFieldArray, useWatch, type FieldErrors, type UseFormRegister } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { FieldError, fieldA11y, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import type { AgentForm, AgentFormControl } from '../lib/agent-form';
import { nextRowFor, rowsOfDay, timeZones, WEEKDAYS } from '@/lib/business-hours';

/** "Always on", or a time zone and opening hours per weekday (several ranges a day), and what happens outside them. */
export function BusinessHoursFields({
  control,
  register,
  errors,
}: {
  control: AgentFormControl;
  register: UseFormRegister<AgentForm>;
  errors: FieldErrors<AgentForm>;
}) {
  const alwaysOn = useWatch({ control, name: 'alwaysOn' });
  const hours = useFieldArray({ control, name: 'hours' });
  const currentHours = useWatch({ control, name: 'hours' });
  const zones = useMemo(() => timeZones(), []);
  const listError = errors.hours?.message ?? errors.hours?.root?.message;

  return (
    <div className="grid gap-4">
      <div className="flex items-start justify-between gap-4">
        <div className="grid gap-1">
          <Label htmlFor="agent-always-on">Always on</Label>
          <p id="agent-always-on-description" className="text-sm text-muted-foreground">
            The agent answers at any hour. Turn off to set opening hours.
          </p>
        </div>
        <Controller
          control={control}
          name="alwaysOn"
          render={({ field }) => (
            <Switch
              id="agent-always-on"
              aria-describedby="agent-always-on-description"
              checked={field.value}
              onCheckedChange={field.onChange}
              onBlur={field.onBlur}
              ref={field.ref}
            />
          )}
        />
      </div>

      {alwaysOn ? null : (
        <>
          <FormField id="agent-timezone" label="Time zone" error={errors.timezone?.message} description="An IANA time zone, e.g. Europe/London.">
            <Input {...fieldA11y('agent-timezone', errors.timezone?.message, true)} list="agent-timezones" autoComplete="off" {...register('timezone')} />
          </FormField>
          <datalist id="agent-timezones">
            {zones.map((zone) => (
              <option key={zone} value={zone} />
            ))}
          </datalist>

          <fieldset className="grid gap-2">
            <legend className="mb-2 text-sm font-medium">Opening hours</legend>
            {WEEKDAYS.map(({ day, label }) => {
              const rows = rowsOfDay(hours.fields, day);
              return (
                <div key={day} className="grid gap-2 border-b pb-2 last:border-b-0 sm:grid-cols-[7rem_1fr_auto] sm:items-start">
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
                            <Input
                              type="time"
                              aria-label={`${label} opens${suffix}`}
                              aria-invalid={rowErrors?.open ? true : undefined}
                              className="w-32"
                              {...register(`hours.${index}.open`)}
                            />
                            <span aria-hidden>–</span>
                            <Input
                              type="time"
                              aria-label={`${label} closes${suffix}`}
                              aria-invalid={rowErrors?.close ? true : undefined}
                              className="w-32"
                              {...register(`hours.${index}.close`)}
                            />
                            <Button type="button" variant="ghost" size="icon" aria-label={`Remove ${label} hours${suffix}`} onClick={() => hours.remove(index)}>
                              <X aria-hidden />
                            </Button>
                          </div>
                          {message ? <FieldError>{message}</FieldError> : null}
                        </div>
                      );
                    })}
                  </div>
                  <Button
                    type="button"
                    variant="outline"
                    size="sm"
                    aria-label={`Add ${label} hours`}
                    onClick={() => hours.append(nextRowFor(currentHours, day))}
                  >
                    <Plus aria-hidden />
                    Add hours
                  </Button>
                </div>
              );
            })}
            {listError ? <FieldError>{listError}</FieldError> : null}
          </fieldset>

          <FormField id="agent-outside-hours" label="Outside business hours" error={errors.outsideHours?.message}>
            <Controller
              control={control}
              name="outsideHours"
              render={({ field }) => (
                <Select value={field.value} onValueChange={field.onChange}>
                  <SelectTrigger id="agent-outside-hours" className="w-full sm:w-80">
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    <SelectItem value="answer">Keep answering</SelectItem>
                    <SelectItem value="away">Send the away text and leave it to the team</SelectItem>
                  </SelectContent>
                </Select>
              )}
            />
          </FormField>
        </>
      )}
    </div>
  );
}
