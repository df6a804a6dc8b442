import { FlaskConical, History, KeyRound, Power, PowerOff } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import type { z } from 'zod';
import type { ChannelView, createdChannel } from '@common/api/channels';
import { CopyField } from '@/components/copy-field';
import { PlatformDot } from '@/components/platform-dot';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { useDeliveries } from '../api/get-deliveries';
import { useRotateVerifyToken } from '../api/rotate-verify-token';
import { useTestChannel } from '../api/test-channel';
import { useUpdateChannel } from '../api/update-channel';
import { CHANNEL_KIND_LABEL } from '@common/messaging/channel-label';
import { EXTERNAL_ID_LABEL, isMetaKind } from '../lib/channels';
import { ChannelSecrets } from './channel-secrets';

const SECRET_LABEL = { accessToken: 'Access token', appSecret: 'App secret', verifyToken: 'Verify token', signingSecret: 'Signing secret' } as const;

function DeliveriesDialog({ channel, open, onOpenChange }: { channel: ChannelView; open: boolean; onOpenChange: (open: boolean) => void }) {
  const deliveries = useDeliveries(channel.id, open);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-3xl">
        <DialogHeader>
          <DialogTitle>Delivery log: {channel.name}</DialogTitle>
          <DialogDescription>Every attempt to POST a reply to {channel.callbackUrl ?? 'the callback URL'}, newest first.</DialogDescription>
        </DialogHeader>
        {deliveries.isPending ? (
          <p className="text-sm text-muted-foreground">Loading deliveries...</p>
        ) : deliveries.isError ? (
          <p className="text-sm text-destructive">{errorMessage(deliveries.error, 'The delivery log could not be loaded.')}</p>
        ) : deliveries.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">No deliveries yet. Replies in this channel&apos;s conversations are delivered here.</p>
        ) : (
          <Table aria-label="Deliveries">
            <TableHeader>
              <TableRow>
                <TableHead>Time</TableHead>
                <TableHead>Attempt</TableHead>
                <TableHead>Result</TableHead>
                <TableHead>Duration</TableHead>
                <TableHead>Response</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {deliveries.data.map((d) => {
                const ok = d.statusCode !== null && d.statusCode >= 200 && d.statusCode < 300;
                return (
                  <TableRow key={d.id}>
                    <TableCell className="text-xs whitespace-nowrap">{formatDateTime(d.createdAt)}</TableCell>
                    <TableCell className="tabular-nums">{d.attempt}</TableCell>
                    <TableCell>
                      <Badge variant={ok ? 'success' : 'destructive'}>{d.statusCode ?? 'No answer'}</Badge>
                    </TableCell>
                    <TableCell className="tabular-nums">{d.durationMs} ms</TableCell>
                    <TableCell className="max-w-xs truncate font-mono text-xs" title={d.error ?? d.responseBody ?? ''}>
                      {d.error ?? d.responseBody ?? '—'}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        )}
      </DialogContent>
    </Dialog>
  );
}

function RotatedTokenDialog({ channel, onClose }: { channel: z.infer<typeof createdChannel> | null; onClose: () => void }) {
  return (
    <Dialog open={channel !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>New verify token</DialogTitle>
          <DialogDescription>Paste it into Meta&apos;s webhook settings now: it is shown only this once, and the old one no longer works.</DialogDescription>
        </DialogHeader>
        {channel ? <ChannelSecrets channel={channel} /> : null}
        <DialogFooter>
          <Button onClick={onClose}>Done</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** One channel of a client; admins can test, rotate, disable and read its delivery log. */
export function ChannelCard({ channel, canManage }: { channel: ChannelView; canManage: boolean }) {
  const test = useTestChannel();
  const update = useUpdateChannel();
  const rotate = useRotateVerifyToken();
  const [deliveriesOpen, setDeliveriesOpen] = useState(false);
  const [rotated, setRotated] = useState<z.infer<typeof createdChannel> | null>(null);
  const active = channel.status === 'active';
  const stored = (Object.keys(SECRET_LABEL) as (keyof typeof SECRET_LABEL)[]).filter((key) => channel.secrets[key]);

  return (
    <article aria-label={`${channel.name} channel`} className="grid gap-3 rounded-lg border p-4">
      <header className="flex flex-wrap items-center gap-2">
        <PlatformDot platform={channel.kind} />
        <h4 className="font-medium">{channel.name}</h4>
        {channel.name !== CHANNEL_KIND_LABEL[channel.kind] ? <span className="text-sm text-muted-foreground">{CHANNEL_KIND_LABEL[channel.kind]}</span> : null}
        <Badge variant={active ? 'success' : 'secondary'} className="ml-auto">
          {active ? 'Active' : 'Disabled'}
        </Badge>
      </header>
      <dl className="grid gap-1 text-sm sm:grid-cols-[auto_1fr] sm:gap-x-4">
        {channel.externalId ? (
          <>
            <dt className="text-muted-foreground">{EXTERNAL_ID_LABEL[channel.kind]}</dt>
            <dd className="font-mono text-xs break-all">{channel.externalId}</dd>
          </>
        ) : null}
        {channel.callbackUrl ? (
          <>
            <dt className="text-muted-foreground">Callback URL</dt>
            <dd className="font-mono text-xs break-all">{channel.callbackUrl}</dd>
          </>
        ) : null}
        {stored.length > 0 ? (
          <>
            <dt className="text-muted-foreground">Stored secrets</dt>
            <dd>{stored.map((key) => SECRET_LABEL[key]).join(', ')}</dd>
          </>
        ) : null}
        <dt className="text-muted-foreground">Connected</dt>
        <dd>{formatDateTime(channel.createdAt)}</dd>
      </dl>
      {channel.webhookUrl ? (
        <CopyField label={isMetaKind(channel.kind) ? 'Callback URL for Meta' : 'Inbound URL'} value={channel.webhookUrl} kind="url" />
      ) : null}
      {channel.embedSnippet ? <CopyField label="Embed Snippet" value={channel.embedSnippet} multiline /> : null}
      {canManage ? (
        <div className="flex flex-wrap gap-2">
          {channel.kind !== 'webchat' ? (
            <Button
              variant="outline"
              size="sm"
              disabled={test.isPending}
              onClick={() =>
                test.mutate(channel.id, {
                  onSuccess: (result) =>
                    result.ok
                      ? toast.success('Credentials OK', { description: result.message })
                      : toast.error('Credentials Failed', { description: result.message }),
                  onError: (error) => toast.error('Error', { description: errorMessage(error, 'The test could not run.') }),
                })
              }
            >
              <FlaskConical aria-hidden />
              {test.isPending ? 'Testing...' : 'Test Credentials'}
            </Button>
          ) : null}
          {isMetaKind(channel.kind) ? (
            <Button
              variant="outline"
              size="sm"
              disabled={rotate.isPending}
              onClick={() =>
                rotate.mutate(channel.id, {
                  onSuccess: setRotated,
                  onError: (error) => toast.error('Error', { description: errorMessage(error, 'The verify token could not be replaced.') }),
                })
              }
            >
              <KeyRound aria-hidden />
              New Verify Token
            </Button>
          ) : null}
          {channel.kind === 'api' ? (
            <Button variant="outline" size="sm" onClick={() => setDeliveriesOpen(true)}>
              <History aria-hidden />
              Delivery Log
            </Button>
          ) : null}
          <Button
            variant={active ? 'outline' : 'default'}
            size="sm"
            disabled={update.isPending}
            onClick={() =>
              update.mutate(
                { id: channel.id, status: active ? 'disabled' : 'active' },
                {
                  onSuccess: (saved) => toast.success(saved.status === 'active' ? 'Channel Enabled' : 'Channel Disabled', { description: saved.name }),
                  onError: (error) => toast.error('Error', { description: errorMessage(error, 'The channel could not be updated.') }),
                },
              )
            }
          >
            {active ? <PowerOff aria-hidden /> : <Power aria-hidden />}
            {active ? 'Disable' : 'Enable'}
          </Button>
        </div>
      ) : null}
      {channel.kind === 'api' ? <DeliveriesDialog channel={channel} open={deliveriesOpen} onOpenChange={setDeliveriesOpen} /> : null}
      <RotatedTokenDialog channel={rotated} onClose={() => setRotated(null)} />
    </article>
  );
}
