import { Download, ScrollText } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { SECURITY_EVENT_LABELS, securityEventLabel, type SecurityEventView } from '@common/api/security';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FieldError } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { useDownloadSecurityEvents, useSecurityEvents } from '../api/find-security-events';
import { type AuditLogForm, detailText, EMPTY_AUDIT_FORM, rangeError, toAuditFilters } from '../lib/audit-log';

const TYPES = Object.keys(SECURITY_EVENT_LABELS).sort((a, b) => securityEventLabel(a).localeCompare(securityEventLabel(b)));

const SEVERITY_VARIANT = { info: 'secondary', warning: 'warning', critical: 'destructive' } as const;

function EventItem({ event }: { event: SecurityEventView }) {
  const details = Object.entries(event.details);
  const who = event.userName ?? event.email;
  return (
    <li className="grid gap-1 rounded-lg border p-3">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium">{securityEventLabel(event.type)}</span>
        <Badge variant={SEVERITY_VARIANT[event.severity]}>{event.severity}</Badge>
        <time dateTime={event.createdAt} className="ml-auto text-xs text-muted-foreground">
          {formatDateTime(event.createdAt)}
        </time>
      </div>
      <p className="text-sm break-words text-muted-foreground">
        {who ? <span className="text-foreground">{who}</span> : 'No account'}
        {event.userName && event.email ? ` · ${event.email}` : ''}
        {event.ipAddress ? ` · ${event.ipAddress}` : ''}
      </p>
      {details.length > 0 ? (
        <dl className="grid gap-x-3 gap-y-0.5 text-xs sm:grid-cols-[max-content_1fr]">
          {details.map(([key, value]) => (
            <div key={key} className="contents">
              <dt className="text-muted-foreground">{key}</dt>
              <dd className="min-w-0 font-mono break-all">{detailText(value)}</dd>
            </div>
          ))}
        </dl>
      ) : null}
    </li>
  );
}

/**
 * Admin Settings → Security: the audit log of security events (sign-in lockouts, password, role and
 * two-factor changes, refused access, revoked sessions, changed settings), newest first, filtered
 * by type, user and dates, paged, and exported as CSV with the same filter.
 */
export function AuditLog() {
  const [form, setForm] = useState<AuditLogForm>(EMPTY_AUDIT_FORM);
  const [applied, setApplied] = useState<AuditLogForm>(EMPTY_AUDIT_FORM);
  const [formError, setFormError] = useState<string | undefined>();
  const filters = toAuditFilters(applied);
  const events = useSecurityEvents(filters);
  const download = useDownloadSecurityEvents();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const error = rangeError(form);
    setFormError(error);
    if (!error) setApplied(form);
  };

  const rows = events.data?.pages.flatMap((page) => page.events) ?? [];

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ScrollText aria-hidden className="size-4 text-primary" />
          Audit Log
        </CardTitle>
        <CardDescription>Security events, newest first. Dates are in your time zone.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <form onSubmit={onSubmit} noValidate className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          <div className="grid gap-2">
            <Label htmlFor="audit-type">Event</Label>
            <Select value={form.type} onValueChange={(type) => setForm({ ...form, type })}>
              <SelectTrigger id="audit-type" className="w-full">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value="all">All events</SelectItem>
                {TYPES.map((type) => (
                  <SelectItem key={type} value={type}>
                    {securityEventLabel(type)}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <div className="grid gap-2">
            <Label htmlFor="audit-user">User</Label>
            <Input id="audit-user" placeholder="Name or e-mail" value={form.user} maxLength={254} onChange={(e) => setForm({ ...form, user: e.target.value })} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="audit-from">From</Label>
            <Input id="audit-from" type="date" value={form.from} onChange={(e) => setForm({ ...form, from: e.target.value })} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="audit-to">To</Label>
            <Input
              id="audit-to"
              type="date"
              value={form.to}
              aria-invalid={formError ? true : undefined}
              aria-describedby={formError ? 'audit-to-error' : undefined}
              onChange={(e) => setForm({ ...form, to: e.target.value })}
            />
            {formError ? <FieldError id="audit-to-error">{formError}</FieldError> : null}
          </div>
          <div className="flex flex-wrap gap-2 sm:col-span-2 lg:col-span-4">
            <Button type="submit">Apply Filters</Button>
            <Button
              type="button"
              variant="ghost"
              onClick={() => {
                setForm(EMPTY_AUDIT_FORM);
                setApplied(EMPTY_AUDIT_FORM);
                setFormError(undefined);
              }}
            >
              Clear
            </Button>
            <Button
              type="button"
              variant="outline"
              className="sm:ml-auto"
              disabled={download.isPending}
              onClick={() =>
                download.mutate(filters, {
                  onError: (error) => toast.error('Export Failed', { description: errorMessage(error, 'The audit log could not be exported.') }),
                })
              }
            >
              <Download aria-hidden />
              {download.isPending ? 'Exporting...' : 'Export CSV'}
            </Button>
          </div>
        </form>

        {events.isPending ? (
          <div className="grid gap-2" aria-label="Loading the audit log">
            <Skeleton className="h-16" />
            <Skeleton className="h-16" />
          </div>
        ) : events.isError ? (
          <p className="text-sm text-muted-foreground">{errorMessage(events.error, 'The audit log could not be loaded.')}</p>
        ) : rows.length === 0 ? (
          <p className="rounded-lg border border-dashed p-4 text-sm text-muted-foreground">No security events match these filters.</p>
        ) : (
          <>
            <ul className="grid gap-2" aria-label="Security events">
              {rows.map((event) => (
                <EventItem key={event.id} event={event} />
              ))}
            </ul>
            {events.hasNextPage ? (
              <Button variant="outline" className="justify-self-center" disabled={events.isFetchingNextPage} onClick={() => void events.fetchNextPage()}>
                {events.isFetchingNextPage ? 'Loading...' : 'Load More'}
              </Button>
            ) : null}
          </>
        )}
      </CardContent>
    </Card>
  );
}
