import { Building2, Filter, MessagesSquare, UserCheck, UserX, type LucideIcon } from 'lucide-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import type { ClientView } from '@common/api/channels';
import type { Role } from '@common/roles';
import { Avatar, AvatarFallback, initialsOf } from '@/components/ui/avatar';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadError } from '@/components/ui/load-error';
import { SearchInput } from '@/components/ui/search-input';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { Tabs, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { errorMessage } from '@/lib/api-client';
import { formatRelative } from '@/lib/format';
import { useClientList } from '@/lib/api/clients';
import {
  DEFAULT_CLIENT_QUERY,
  filterClients,
  isFiltered,
  summarizeClients,
  type ChannelFilter,
  type ClientQuery,
  type ClientSort,
  type ClientTab,
} from '../lib/clients';
import { ClientDetailSheet } from './client-detail-sheet';
import { ClientFormDialog } from './client-form-dialog';

function SummaryCard({ label, value, icon: Icon }: { label: string; value: number | undefined; icon: LucideIcon }) {
  return (
    <Card className="gap-2 py-4">
      <CardContent className="flex items-center justify-between gap-3 px-4">
        <dl className="flex flex-col-reverse">
          <dt className="text-sm text-muted-foreground">{label}</dt>
          <dd className="text-2xl font-semibold tabular-nums">{value ?? '—'}</dd>
        </dl>
        <Icon aria-hidden className="size-5 text-primary" />
      </CardContent>
    </Card>
  );
}

function StatusBadge({ status }: { status: ClientView['status'] }) {
  return <Badge variant={status === 'active' ? 'success' : 'secondary'}>{status === 'active' ? 'Active' : 'Inactive'}</Badge>;
}

/** The client's automation is paused (its AI agent does not answer). */
function PausedBadge({ client }: { client: ClientView }) {
  return client.automationPausedAt ? (
    <Badge variant="warning" title="The automation is paused: the AI agent does not answer">
      Paused
    </Badge>
  ) : null;
}

function lastSeen(client: ClientView): string {
  return client.lastInteractionAt ? formatRelative(client.lastInteractionAt) : 'No interaction yet';
}

function ClientCard({ client, onOpen }: { client: ClientView; onOpen: () => void }) {
  return (
    <li>
      <Card className="h-full gap-4 py-5">
        <CardContent className="grid h-full gap-4 px-5">
          <div className="flex items-start gap-3">
            <Avatar className="size-11">
              <AvatarFallback>{initialsOf(client.companyName)}</AvatarFallback>
            </Avatar>
            <div className="min-w-0 flex-1">
              <h3 className="truncate font-semibold">{client.companyName}</h3>
              <p className="truncate text-sm text-muted-foreground">{client.contactPerson ?? client.email ?? 'No contact person'}</p>
            </div>
            <span className="flex flex-col items-end gap-1">
              <StatusBadge status={client.status} />
              <PausedBadge client={client} />
            </span>
          </div>
          <dl className="grid grid-cols-3 gap-2 text-center">
            {(
              [
                ['Channels', client.channelCount],
                ['Conversations', client.conversationCount],
                ['Users', client.userCount],
              ] as const
            ).map(([label, value]) => (
              <div key={label} className="flex flex-col-reverse rounded-md bg-muted/40 p-2">
                <dt className="text-[0.7rem] text-muted-foreground">{label}</dt>
                <dd className="font-semibold tabular-nums">{value}</dd>
              </div>
            ))}
          </dl>
          <div className="mt-auto flex items-center justify-between gap-2">
            <span className="text-xs text-muted-foreground">{lastSeen(client)}</span>
            <Button variant="outline" size="sm" onClick={onOpen} aria-label={`View Profile of ${client.companyName}`}>
              View Profile
            </Button>
          </div>
        </CardContent>
      </Card>
    </li>
  );
}

function ClientsTable({ clients, onOpen }: { clients: ClientView[]; onOpen: (id: string) => void }) {
  return (
    <Card className="py-2">
      <CardContent className="px-2">
        <Table aria-label="Clients">
          <TableHeader>
            <TableRow>
              <TableHead>Company</TableHead>
              <TableHead>Contact</TableHead>
              <TableHead>Status</TableHead>
              <TableHead className="text-right">Channels</TableHead>
              <TableHead className="text-right">Conversations</TableHead>
              <TableHead>Last interaction</TableHead>
              <TableHead>
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {clients.map((client) => (
              <TableRow key={client.id}>
                <TableCell className="font-medium">{client.companyName}</TableCell>
                <TableCell className="text-sm text-muted-foreground">
                  <div>{client.contactPerson ?? '—'}</div>
                  {client.email ? <div className="text-xs">{client.email}</div> : null}
                </TableCell>
                <TableCell>
                  <span className="flex flex-wrap gap-1">
                    <StatusBadge status={client.status} />
                    <PausedBadge client={client} />
                  </span>
                </TableCell>
                <TableCell className="text-right tabular-nums">{client.channelCount}</TableCell>
                <TableCell className="text-right tabular-nums">{client.conversationCount}</TableCell>
                <TableCell className="text-sm text-muted-foreground">{lastSeen(client)}</TableCell>
                <TableCell className="text-right">
                  <Button variant="outline" size="sm" onClick={() => onOpen(client.id)} aria-label={`Manage ${client.companyName}`}>
                    Manage
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </CardContent>
    </Card>
  );
}

const TABS: { value: ClientTab; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'active', label: 'Active' },
  { value: 'inactive', label: 'Inactive' },
];

/**
 * The client list (spec part 1 §2.14): search, All / Active / Inactive, Filter (channels, order),
 * Add Client (admins), four summary cards and a card (or, on /admin/clients, a row) per client.
 * A client's profile and channels open in a side panel with `?client=<id>`.
 */
export function ClientsDirectory({ role, view }: { role: Role; view: 'cards' | 'table' }) {
  const clients = useClientList();
  const [params, setParams] = useSearchParams();
  const openId = params.get('client');
  const [query, setQuery] = useState<ClientQuery>(DEFAULT_CLIENT_QUERY);
  const update = (changes: Partial<ClientQuery>) => setQuery((current) => ({ ...current, ...changes }));
  const summary = clients.data ? summarizeClients(clients.data) : undefined;
  const shown = clients.data ? filterClients(clients.data, query) : [];
  const open = (id: string) => setParams({ client: id });
  const filtered = isFiltered(query);

  return (
    <div className="grid gap-4">
      <section aria-label="Client summary" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <SummaryCard label="Total Clients" value={summary?.total} icon={Building2} />
        <SummaryCard label="Active Clients" value={summary?.active} icon={UserCheck} />
        <SummaryCard label="Inactive Clients" value={summary?.inactive} icon={UserX} />
        <SummaryCard label="Conversations" value={summary?.conversations} icon={MessagesSquare} />
      </section>

      <div className="flex flex-col gap-3 lg:flex-row lg:items-center">
        <SearchInput
          wrapperClassName="lg:w-80"
          value={query.search}
          onChange={(event) => update({ search: event.target.value })}
          placeholder="Search clients..."
          aria-label="Search clients"
        />
        <Tabs value={query.tab} onValueChange={(value) => update({ tab: value as ClientTab })}>
          <TabsList>
            {TABS.map((tab) => (
              <TabsTrigger key={tab.value} value={tab.value}>
                {tab.label}
              </TabsTrigger>
            ))}
          </TabsList>
        </Tabs>
        <div className="flex gap-2 lg:ml-auto">
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <Button variant={filtered ? 'secondary' : 'outline'}>
                <Filter aria-hidden />
                Filter
                {filtered ? <span className="size-1.5 rounded-full bg-primary" aria-label="(changed)" role="img" /> : null}
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent align="end" className="w-52">
              <DropdownMenuLabel>Channels</DropdownMenuLabel>
              <DropdownMenuRadioGroup value={query.channels} onValueChange={(value) => update({ channels: value as ChannelFilter })}>
                <DropdownMenuRadioItem value="any">Any</DropdownMenuRadioItem>
                <DropdownMenuRadioItem value="connected">With channels</DropdownMenuRadioItem>
                <DropdownMenuRadioItem value="none">Without channels</DropdownMenuRadioItem>
              </DropdownMenuRadioGroup>
              <DropdownMenuSeparator />
              <DropdownMenuLabel>Sort by</DropdownMenuLabel>
              <DropdownMenuRadioGroup value={query.sort} onValueChange={(value) => update({ sort: value as ClientSort })}>
                <DropdownMenuRadioItem value="name">Company name</DropdownMenuRadioItem>
                <DropdownMenuRadioItem value="recent">Last interaction</DropdownMenuRadioItem>
                <DropdownMenuRadioItem value="conversations">Most conversations</DropdownMenuRadioItem>
              </DropdownMenuRadioGroup>
            </DropdownMenuContent>
          </DropdownMenu>
          {role === 'admin' ? <ClientFormDialog onSaved={(client) => open(client.id)} /> : null}
        </div>
      </div>

      {clients.isPending ? (
        <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          <Skeleton className="h-48" />
          <Skeleton className="h-48" />
          <Skeleton className="h-48" />
        </div>
      ) : clients.isError ? (
        <LoadError message={errorMessage(clients.error, 'The clients could not be loaded.')} onRetry={() => void clients.refetch()} />
      ) : clients.data.length === 0 ? (
        <EmptyState icon={Building2} title="No clients yet">
          {role === 'admin' ? 'Add the first business Parley answers for with Add Client.' : 'Client businesses appear here once an admin adds them.'}
        </EmptyState>
      ) : shown.length === 0 ? (
        <p className="rounded-xl border border-dashed p-8 text-center text-sm text-muted-foreground">No clients match your search and filters.</p>
      ) : view === 'cards' ? (
        <ul aria-label="Clients" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {shown.map((client) => (
            <ClientCard key={client.id} client={client} onOpen={() => open(client.id)} />
          ))}
        </ul>
      ) : (
        <ClientsTable clients={shown} onOpen={open} />
      )}

      <ClientDetailSheet clientId={openId} role={role} onClose={() => setParams({})} />
    </div>
  );
}
