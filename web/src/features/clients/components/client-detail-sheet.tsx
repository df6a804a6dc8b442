import { Plug, X } from 'lucide-react';
import type { ClientView } from '@common/api/channels';
import type { Role } from '@common/roles';
import { Avatar, AvatarFallback, initialsOf } from '@/components/ui/avatar';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '@/components/ui/sheet';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { formatDate, formatDateTime, formatRelative } from '@/lib/format';
import { useChannels } from '../api/find-channels';
import { useClient } from '../api/get-client';
import { ChannelCard } from './channel-card';
import { ClientFormDialog } from './client-form-dialog';
import { ClientStatusControl } from './client-status-control';
import { ConnectChannelDialog } from './connect-channel-dialog';

function Channels({ clientId, role }: { clientId: string; role: Role }) {
  const canSee = role !== 'client';
  const canManage = role === 'admin';
  const channels = useChannels(clientId, canSee);
  if (!canSee) return null;
  return (
    <section aria-labelledby="client-channels-heading" className="grid gap-3">
      <div className="flex items-center justify-between gap-2">
        <h3 id="client-channels-heading" className="flex items-center gap-2 font-semibold">
          <Plug aria-hidden className="size-4 text-primary" />
          Channels
        </h3>
        {canManage ? <ConnectChannelDialog clientId={clientId} /> : null}
      </div>
      {channels.isPending ? (
        <Skeleton className="h-24" />
      ) : channels.isError ? (
        <p className="text-sm text-destructive">{errorMessage(channels.error, 'The channels could not be loaded.')}</p>
      ) : channels.data.length === 0 ? (
        <p className="rounded-lg border border-dashed p-4 text-sm text-muted-foreground">
          No channels yet.{' '}
          {canManage
            ? 'Connect WhatsApp, Messenger, Instagram, website chat or a custom platform so customers can write in.'
            : 'An admin connects them.'}
        </p>
      ) : (
        <div className="grid gap-3">
          {channels.data.map((channel) => (
            <ChannelCard key={channel.id} channel={channel} canManage={canManage} />
          ))}
        </div>
      )}
    </section>
  );
}

function Profile({ client, role }: { client: ClientView; role: Role }) {
  const rows: [string, string][] = [
    ['Contact Person', client.contactPerson ?? '—'],
    ['Email', client.email ?? '—'],
    ['Phone', client.phone ?? '—'],
    ['Client since', formatDate(client.createdAt)],
    [
      'Automation',
      client.automationPausedAt
        ? `Paused${client.automationPausedBy ? ` by ${client.automationPausedBy}` : ''} on ${formatDateTime(client.automationPausedAt)}`
        : 'Running',
    ],
    ['Last interaction', client.lastInteractionAt ? formatRelative(client.lastInteractionAt) : 'Never'],
    ['Channels', String(client.channelCount)],
    ['Conversations', String(client.conversationCount)],
    ['Portal users', String(client.userCount)],
  ];
  return (
    <section aria-label="Profile" className="grid gap-3">
      <div className="flex items-center gap-3">
        <Avatar className="size-12">
          <AvatarFallback className="text-base">{initialsOf(client.companyName)}</AvatarFallback>
        </Avatar>
        <div className="min-w-0 flex-1">
          <p className="truncate text-lg font-semibold">{client.companyName}</p>
          <span className="flex flex-wrap gap-1.5">
            <Badge variant={client.status === 'active' ? 'success' : 'secondary'}>{client.status === 'active' ? 'Active' : 'Inactive'}</Badge>
            {client.automationPausedAt ? <Badge variant="warning">Paused</Badge> : null}
          </span>
        </div>
        {role === 'admin' ? (
          <div className="flex flex-wrap justify-end gap-2">
            <ClientFormDialog client={client} />
            <ClientStatusControl client={client} />
          </div>
        ) : null}
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-muted-foreground">{label}</dt>
            <dd className="break-words">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** A client's profile and, for admins and managers, its channels: opened with `?client=<id>`. */
export function ClientDetailSheet({ clientId, role, onClose }: { clientId: string | null; role: Role; onClose: () => void }) {
  const client = useClient(clientId);
  return (
    <Sheet open={clientId !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <SheetContent side="right" className="w-full overflow-y-auto bg-background sm:max-w-2xl" aria-describedby="client-detail-description">
        <div className="sticky top-0 z-10 flex items-center gap-2 border-b bg-background p-4">
          <div className="min-w-0 flex-1">
            <SheetTitle className="truncate text-lg font-semibold">{client.data?.companyName ?? 'Client'}</SheetTitle>
            <SheetDescription id="client-detail-description" className="text-sm text-muted-foreground">
              Client profile{role !== 'client' ? ' and channels' : ''}
            </SheetDescription>
          </div>
          <Button variant="ghost" size="icon" aria-label="Close" onClick={onClose}>
            <X aria-hidden />
          </Button>
        </div>
        <div className="grid gap-6 p-4">
          {client.isPending ? (
            <Skeleton className="h-40" />
          ) : client.isError ? (
            <p className="text-sm text-destructive">{errorMessage(client.error, 'The client could not be loaded.')}</p>
          ) : (
            <>
              <Profile client={client.data} role={role} />
              <Channels clientId={client.data.id} role={role} />
            </>
          )}
        </div>
      </SheetContent>
    </Sheet>
  );
}
