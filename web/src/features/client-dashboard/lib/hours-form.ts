/**
 * The Configure dialog's form (the agent's business hours and what happens outside them), validated
 * with the contract's `businessHours` schema; its messages — and the server's `{ error: { fields } }`
 * at `businessHours.days.3.close` — land on the matching form fields.
 */
import { toNestErrors } from '@hookform/resolvers';
import type { FieldErrors, Resolver } from 'react-hook-form';
import { z } from 'zod';
import { businessHours, outsideHoursMode, type BusinessHours } from '@common/api/agents';
import type { AutomationSettingsView } from '@common/api/client-dashboard';
import { toBusinessHours, toBusinessHoursForm, type HoursRow } from '@/lib/business-hours';

export interface HoursForm {
  alwaysOn: boolean;
  timezone: string;
  hours: HoursRow[];
  outsideHours: 'answer' | 'away';
}

export interface HoursBody {
  businessHours: BusinessHours | null;
  outsideHours: 'answer' | 'away';
}

const hoursBody = z.object({ businessHours: businessHours.nullable(), outsideHours: outsideHoursMode });

export function toHoursForm(settings: Pick<AutomationSettingsView, 'businessHours' | 'outsideHours'>, fallbackTimeZone: string): HoursForm {
  return { ...toBusinessHoursForm(settings.businessHours, fallbackTimeZone), outsideHours: settings.outsideHours };
}

export function toHoursBody(form: HoursForm): HoursBody {
  return { businessHours: toBusinessHours(form), outsideHours: form.outsideHours };
}

/** A contract path as the form's field: `businessHours.days.3.close` → `hours.3.close`, `businessHours.timezone` → `timezone`. */
export function hoursFormPath(path: string): string {
  if (path === 'outsideHours') return 'outsideHours';
  if (path === 'businessHours.timezone') return 'timezone';
  const row = /^businessHours\.days\.(\d+)\.(day|open|close)$/u.exec(path);
  if (row) return `hours.${row[1]}.${row[2]}`;
  return 'hours';
}

function fieldErrors(issues: Iterable<{ path: string; message: string }>): FieldErrors {
  const flat: Record<string, { type: string; message: string }> = {};
  for (const { path, message } of issues) flat[hoursFormPath(path)] ??= { type: 'validation', message };
  return flat;
}

/** react-hook-form resolver: valid when the body passes the contract's schema. */
export const hoursFormResolver: Resolver<HoursForm, unknown, HoursBody> = (values, _context, options) => {
  const result = hoursBody.safeParse(toHoursBody(values));
  if (result.success) return { values: result.data, errors: {} };
  return { values: {}, errors: toNestErrors(fieldErrors(result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }))), options) };
};
