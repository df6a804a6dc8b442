/** The audit log's filters as the form holds them, and as the API takes them. */
import type { AuditLogFilters } from '../api/keys';

export interface AuditLogForm {
  /** 'all' or an event type. */
  type: string;
  user: string;
  /** `YYYY-MM-DD` days in the browser's time zone, both included; '' for open. */
  from: string;
  to: string;
}

export const EMPTY_AUDIT_FORM: AuditLogForm = { type: 'all', user: '', from: '', to: '' };

function localMidnight(day: string, addDays = 0): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/u.exec(day);
  if (!match) return undefined;
  return new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + addDays).toISOString();
}

/** The API's filter: the first day from its local midnight, the last day through its end. */
export function toAuditFilters(form: AuditLogForm): AuditLogFilters {
  return {
    type: form.type === 'all' ? undefined : form.type,
    user: form.user.trim() || undefined,
    from: form.from ? localMidnight(form.from) : undefined,
    to: form.to ? localMidnight(form.to, 1) : undefined,
  };
}

/** Why the range cannot be searched, if it cannot. */
export function rangeError(form: AuditLogForm): string | undefined {
  return form.from && form.to && form.to < form.from ? 'The end date must be on or after the start date' : undefined;
}

/** A detail's value as one line of text. */
export function detailText(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}
