import { INSIGHTS_PERIOD_LABELS, INSIGHTS_PERIODS, type InsightsPeriodKind } from '@common/api/insights';
import { fieldA11y, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { useClientList } from '@/lib/api/clients';
import { defaultCustomRange, type InsightsSelection, type QueryFieldErrors } from '@/lib/period';

const ALL_CLIENTS = 'all';

function ClientFilter({ clientId, onChange, error }: { clientId: string | undefined; onChange: (clientId: string | undefined) => void; error?: string | undefined }) {
  const clients = useClientList({ select: (list) => [...list].sort((a, b) => a.companyName.localeCompare(b.companyName)) });
  return (
    <FormField id="period-filter-client" label="Client" error={error} className="min-w-0 sm:w-60">
      <Select value={clientId ?? ALL_CLIENTS} onValueChange={(value) => onChange(value === ALL_CLIENTS ? undefined : value)}>
        <SelectTrigger {...fieldA11y('period-filter-client', error)} className="w-full">
          <SelectValue placeholder={clients.isPending ? 'Loading clients…' : 'Choose a client'} />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value={ALL_CLIENTS}>All clients</SelectItem>
          {(clients.data ?? []).map((client) => (
            <SelectItem key={client.id} value={client.id}>
              {client.companyName}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </FormField>
  );
}

/**
 * The period (Last 24 hours / 7 days / 30 days / Custom range with its first and last day) and, for
 * managers and admins, the client (the insights page and the AI Summary). Changes go to the URL; the server's field messages show under
 * the field they are about.
 */
export function PeriodFilters({
  selection,
  onChange,
  canChooseClient,
  errors,
}: {
  selection: InsightsSelection;
  onChange: (selection: InsightsSelection) => void;
  canChooseClient: boolean;
  errors: QueryFieldErrors;
}) {
  const choosePeriod = (period: InsightsPeriodKind) => {
    if (period !== 'custom') {
      onChange({ ...selection, period, firstDay: undefined, lastDay: undefined });
      return;
    }
    const range = defaultCustomRange();
    onChange({ ...selection, period, firstDay: selection.firstDay ?? range.firstDay, lastDay: selection.lastDay ?? range.lastDay });
  };
  return (
    <div className="flex min-w-0 flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-start">
      <FormField id="period-filter-period" label="Period" error={errors.period} className="sm:w-44">
        <Select value={selection.period} onValueChange={(value) => choosePeriod(INSIGHTS_PERIODS.find((p) => p === value) ?? '7d')}>
          <SelectTrigger {...fieldA11y('period-filter-period', errors.period)} className="w-full">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {INSIGHTS_PERIODS.map((period) => (
              <SelectItem key={period} value={period}>
                {INSIGHTS_PERIOD_LABELS[period]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </FormField>
      {selection.period === 'custom' ? (
        <div className="grid grid-cols-2 gap-3 sm:flex">
          <FormField id="period-filter-from" label="First day" error={errors.from} className="sm:w-40">
            <Input
              type="date"
              {...fieldA11y('period-filter-from', errors.from)}
              value={selection.firstDay ?? ''}
              onChange={(event) => onChange({ ...selection, firstDay: event.target.value || undefined })}
            />
          </FormField>
          <FormField id="period-filter-to" label="Last day" error={errors.to} className="sm:w-40">
            <Input
              type="date"
              {...fieldA11y('period-filter-to', errors.to)}
              value={selection.lastDay ?? ''}
              onChange={(event) => onChange({ ...selection, lastDay: event.target.value || undefined })}
            />
          </FormField>
        </div>
      ) : null}
      {canChooseClient ? (
        <ClientFilter clientId={selection.clientId} onChange={(clientId) => onChange({ ...selection, clientId })} error={errors.clientId} />
      ) : null}
    </div>
  );
}
