import { ArrowDown, ArrowUp, ArrowUpDown, Building2 } from 'lucide-react';
import { useState } from 'react';
import type { ClientInsights } from '@common/api/insights';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { cn } from '@/lib/cn';
import { formatCount, formatDuration, formatRate, formatSatisfaction, NONE, statusLabel } from '@/lib/figures';
import { DEFAULT_CLIENT_SORT, nextSort, sortClients, type ClientSort, type ClientSortKey } from '../lib/sort-clients';

interface Column {
  key: ClientSortKey;
  header: string;
  numeric: boolean;
  cell: (client: ClientInsights, ratingsCollected: boolean) => string;
}

const COLUMNS: readonly Column[] = [
  { key: 'name', header: 'Client', numeric: false, cell: (c) => c.name },
  { key: 'status', header: 'Status', numeric: false, cell: (c) => statusLabel(c.status) },
  { key: 'conversations', header: 'Conversations', numeric: true, cell: (c) => formatCount(c.totals.conversations) },
  { key: 'messages', header: 'Messages', numeric: true, cell: (c) => formatCount(c.totals.messages) },
  { key: 'automatedResolutionRate', header: 'Automated resolution', numeric: true, cell: (c) => formatRate(c.automatedResolutionRate) },
  { key: 'handoffRate', header: 'Hand-off rate', numeric: true, cell: (c) => formatRate(c.handoffRate) },
  { key: 'medianFirstResponseSeconds', header: 'Median first response', numeric: true, cell: (c) => formatDuration(c.medianFirstResponseSeconds) },
  { key: 'medianResolutionSeconds', header: 'Median resolution', numeric: true, cell: (c) => formatDuration(c.medianResolutionSeconds) },
  { key: 'satisfaction', header: 'Satisfaction', numeric: true, cell: (c, rated) => (rated ? formatSatisfaction(c.satisfaction) : NONE) },
];

function SortIcon({ direction }: { direction: 'ascending' | 'descending' | undefined }) {
  const Icon = direction === 'ascending' ? ArrowUp : direction === 'descending' ? ArrowDown : ArrowUpDown;
  return <Icon aria-hidden className={cn('size-3.5', direction ? 'text-foreground' : 'opacity-50')} />;
}

/**
 * Clients: each client's figures for the period, sortable by any column (a header is a button;
 * `aria-sort` says the order). The table scrolls inside its own box on a narrow screen.
 */
export function ClientsTable({ clients, ratingsCollected }: { clients: readonly ClientInsights[]; ratingsCollected: boolean }) {
  const [sort, setSort] = useState<ClientSort>(DEFAULT_CLIENT_SORT);
  const rows = sortClients(clients, sort);

  return (
    <Card role="region" aria-labelledby="insights-clients" className="min-w-0">
      <CardHeader>
        <CardTitle id="insights-clients">Clients</CardTitle>
        <CardDescription>
          Conversations started in this period, per client. Automated resolution: resolved with the AI&apos;s answers alone; hand-off rate:
          handed to a person at least once.
        </CardDescription>
      </CardHeader>
      <CardContent className="min-w-0 px-2 sm:px-6">
        {clients.length === 0 ? (
          <EmptyState icon={Building2} title="No clients yet" className="border-0" />
        ) : (
          <div className="w-full min-w-0 overflow-x-auto" data-testid="clients-table-scroll">
            <table aria-label="Clients" className="w-full caption-bottom text-sm">
              <thead>
                <tr className="border-b">
                  {COLUMNS.map((column) => {
                    const direction = sort.key === column.key ? sort.direction : undefined;
                    return (
                      <th
                        key={column.key}
                        scope="col"
                        aria-sort={direction ?? 'none'}
                        className={cn('h-10 px-1 align-middle font-medium whitespace-nowrap text-muted-foreground', column.numeric ? 'text-right' : 'text-left')}
                      >
                        <button
                          type="button"
                          onClick={() => setSort((current) => nextSort(current, column.key))}
                          className={cn(
                            'inline-flex items-center gap-1 rounded-md px-1 py-1 outline-none hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50',
                            column.numeric && 'flex-row-reverse',
                          )}
                        >
                          {column.header}
                          <SortIcon direction={direction} />
                        </button>
                      </th>
                    );
                  })}
                </tr>
              </thead>
              <tbody>
                {rows.map((client) => (
                  <tr key={client.clientId} className="border-b transition-colors last:border-0 hover:bg-muted/40">
                    {COLUMNS.map((column) =>
                      column.key === 'name' ? (
                        <th key={column.key} scope="row" className="max-w-56 p-2 text-left font-medium break-words">
                          {client.name}
                        </th>
                      ) : column.key === 'status' ? (
                        <td key={column.key} className="p-2">
                          <Badge variant={client.status === 'active' ? 'success' : 'secondary'}>{statusLabel(client.status)}</Badge>
                        </td>
                      ) : (
                        <td key={column.key} className="p-2 text-right whitespace-nowrap tabular-nums">
                          {column.cell(client, ratingsCollected)}
                        </td>
                      ),
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
