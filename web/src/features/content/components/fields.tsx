/** Form fields of the content editors: a label, the control, its hint and its error, tied together for screen readers. */
import type { ReactNode } from 'react';
import { Controller, type FieldErrors, type FieldValues, type Path, type UseFormReturn } from 'react-hook-form';
import { fieldA11y, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { Textarea } from '@/components/ui/textarea';

/** The message at `path` of react-hook-form's nested errors. */
export function errorAt(errors: FieldErrors, path: string): string | undefined {
  let node: unknown = errors;
  for (const part of path.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  if (node === null || typeof node !== 'object') return undefined;
  const message = (node as { message?: unknown }).message;
  return typeof message === 'string' ? message : undefined;
}

export const fieldId = (prefix: string, name: string) => `${prefix}-${name.replace(/\./gu, '-')}`;

interface FieldProps<F extends FieldValues, T> {
  form: UseFormReturn<F, unknown, T>;
  name: Path<F>;
  label: string;
  /** Makes ids unique on the page: the section's key. */
  idPrefix: string;
  description?: ReactNode;
  className?: string;
}

export function TextField<F extends FieldValues, T>({
  form,
  name,
  label,
  idPrefix,
  description,
  className,
  multiline = false,
  rows,
  type = 'text',
  placeholder,
  autoComplete = 'off',
}: FieldProps<F, T> & { multiline?: boolean; rows?: number; type?: 'text' | 'email' | 'tel' | 'url'; placeholder?: string; autoComplete?: string }) {
  const id = fieldId(idPrefix, name);
  const error = errorAt(form.formState.errors, name);
  const a11y = fieldA11y(id, error, description !== undefined);
  return (
    <FormField id={id} label={label} error={error} description={description} className={className}>
      {multiline ? (
        <Textarea {...a11y} rows={rows} placeholder={placeholder} {...form.register(name)} />
      ) : (
        <Input {...a11y} type={type} autoComplete={autoComplete} placeholder={placeholder} {...form.register(name)} />
      )}
    </FormField>
  );
}

export function SelectField<F extends FieldValues, T>({
  form,
  name,
  label,
  idPrefix,
  description,
  className,
  options,
  placeholder,
}: FieldProps<F, T> & { options: readonly { value: string; label: string }[]; placeholder?: string }) {
  const id = fieldId(idPrefix, name);
  const error = errorAt(form.formState.errors, name);
  return (
    <FormField id={id} label={label} error={error} description={description} className={className}>
      <Controller
        control={form.control}
        name={name}
        render={({ field }) => (
          <Select value={typeof field.value === 'string' ? field.value : ''} onValueChange={field.onChange}>
            <SelectTrigger {...fieldA11y(id, error, description !== undefined)} className="w-full" onBlur={field.onBlur} ref={field.ref}>
              <SelectValue placeholder={placeholder} />
            </SelectTrigger>
            <SelectContent>
              {options.map((option) => (
                <SelectItem key={option.value} value={option.value}>
                  {option.label}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        )}
      />
    </FormField>
  );
}

export function SwitchField<F extends FieldValues, T>({ form, name, label, idPrefix, description, className }: FieldProps<F, T>) {
  const id = fieldId(idPrefix, name);
  return (
    <div className={className ?? 'flex items-start justify-between gap-4'}>
      <div className="grid gap-1">
        <Label htmlFor={id}>{label}</Label>
        {description ? (
          <p id={`${id}-description`} className="text-xs text-muted-foreground">
            {description}
          </p>
        ) : null}
      </div>
      <Controller
        control={form.control}
        name={name}
        render={({ field }) => (
          <Switch
            id={id}
            aria-describedby={description ? `${id}-description` : undefined}
            checked={field.value === true}
            onCheckedChange={field.onChange}
            onBlur={field.onBlur}
            ref={field.ref}
          />
        )}
      />
    </div>
  );
}

/** A titled group of fields (a service card, a value, a stat). */
export function FieldGroup({ legend, children, className }: { legend: string; children: ReactNode; className?: string }) {
  return (
    <fieldset className={className ?? 'grid min-w-0 gap-3 rounded-lg border p-3 sm:p-4'}>
      <legend className="px-1 text-sm font-semibold">{legend}</legend>
      {children}
    </fieldset>
  );
}
