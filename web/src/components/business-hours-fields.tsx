import { Plus, X } from 'lucide-react';
import { useMemo } from 'react';
import { Controller, useFieldArray, useWatch, type Control, type FieldErrors, type FieldValues, type UseFormRegister } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { FieldError, fieldA11y, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { nextRowFor, rowsOfDay, timeZones, WEEKDAYS, type HoursRow } from '@/lib/business-hours';

/** The fields a form needs for the AI agent's business hours (`@/lib/business-hours` converts them to and from the API's value). */
export interface BusinessHoursFormFields {
  alwaysOn: boolean;
  timezone: string;
  hours: HoursRow[];
  outsideHours: 'answer' | 'away';
}

/**
 * "Always on", or a time zone and opening hours per weekday (several ranges a day), and what
 * happens outside them — for any react-hook-form form that has these four fields (the agents
 * page's agent form, the client dashboard's Configure dialog). `idPrefix` keeps the ids apart.
 */
export function BusinessHoursFields<T extends BusinessHoursFormFields & FieldValues, TTransformed = T>({
  idPrefix,
  control: formControl,
  register: formRegister,
  errors: formErrors,
}: {
  idPrefix: string;
  control: Control<T, unknown, TTransformed>;
  register: UseFormRegister<T>;
  errors: FieldErrors<T>;
}) {
  // The form is wider than these four fields; the fields are all this component reads or writes.
  const control = formControl as unknown as Control<BusinessHoursFormFields>;
  const register = formRegister as unknown as UseFormRegister<BusinessHoursFormFields>;
  const errors = formErrors as FieldErrors<BusinessHoursFormFields>;
  const alwaysOn = useWatch({ control, name: 'alwaysOn' });
  const hours = useFieldArray({ control, name: 'hours' });
  const currentHours = useWatch({ control, name: 'hours' });
  const zones = useMemo(() => timeZones(), []);
  const listError = errors.hours?.message ?? errors.hours?.root?.message;
  const id = (name: string) => `${idPrefix}-${name}`;

  return (
    <div className="grid gap-4">
      <div className="flex items-start justify-between gap-4">
        <div className="grid gap-1">
          <Label htmlFor={id('always-on')}>Always on</Label>
          <p id={id('always-on-description')} className="text-sm text-muted-foreground">
            The agent answers at any hour. Turn off to set opening hours.
          </p>
        </div>
        <Controller
          control={control}
          name="alwaysOn"
          render={({ field }) => (
            <Switch
              id={id('always-on')}
              aria-describedby={id('always-on-description')}
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
          <FormField id={id('timezone')} label="Time zone" error={errors.timezone?.message} description="An IANA time zone, e.g. Europe/London.">
            <Input {...fieldA11y(id('timezone'), errors.timezone?.message, true)} list={id('timezones')} autoComplete="off" {...register('timezone')} />
          </FormField>
          <datalist id={id('timezones')}>
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
                            <Input
                              type="time"
                              aria-label={`${label} opens${suffix}`}
                              aria-invalid={rowErrors?.open ? true : undefined}
                              className="w-28 min-w-0"
                              {...register(`hours.${index}.open`)}
                            />
                            <span aria-hidden>–</span>
                            <Input
                              type="time"
                              aria-label={`${label} closes${suffix}`}
                              aria-invalid={rowErrors?.close ? true : undefined}
                              className="w-28 min-w-0"
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
                  <Button type="button" variant="outline" size="sm" aria-label={`Add ${label} hours`} onClick={() => hours.append(nextRowFor(currentHours, day))}>
                    <Plus aria-hidden />
                    Add hours
                  </Button>
                </div>
              );
            })}
            {listError ? <FieldError>{listError}</FieldError> : null}
          </fieldset>

          <FormField id={id('outside-hours')} label="Outside business hours" error={errors.outsideHours?.message}>
            <Controller
              control={control}
              name="outsideHours"
              render={({ field }) => (
                <Select value={field.value} onValueChange={field.onChange}>
                  <SelectTrigger id={id('outside-hours')} className="w-full sm:w-80">
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
        </>
      )}
    </div>
  );
}
