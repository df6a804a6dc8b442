import { zodResolver } from '@hookform/resolvers/zod';
import { Ban, MailPlus, RefreshCw, UserPlus } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { createInvitationInput, INVITATION_EXPIRY_DAYS, type CreateInvitationInput, type InvitationView } from '@common/api/onboarding';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '@/components/ui/alert-dialog';
import { Badge } from '@/components/ui/badge';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { fieldA11y, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { LoadError } from '@/components/ui/load-error';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage, isApiError } from '@/lib/api-client';
import { useClientList } from '@/lib/api/clients';
import { formatDateTime } from '@/lib/format';
import { useCreateInvitation, useInvitations, useResendInvitation, useRevokeInvitation } from '../api/invitations';

const STATUS_BADGE: Record<InvitationView['status'], { label: string; variant: 'warning' | 'success' | 'secondary' | 'outline' }> = {
  pending: { label: 'Pending', variant: 'warning' },
  accepted: { label: 'Accepted', variant: 'success' },
  expired: { label: 'Expired', variant: 'outline' },
  revoked: { label: 'Revoked', variant: 'secondary' },
};

function statusLine(invitation: InvitationView): string {
  switch (invitation.status) {
    case 'pending':
      return `Sent ${formatDateTime(invitation.sentAt)} · expires ${formatDateTime(invitation.expiresAt)}`;
    case 'expired':
      return `Expired ${formatDateTime(invitation.expiresAt)}`;
    case 'accepted':
      return `Accepted ${formatDateTime(invitation.acceptedAt)}${invitation.acceptedBy ? ` by ${invitation.acceptedBy.name}` : ''}`;
    case 'revoked':
      return `Revoked ${formatDateTime(invitation.revokedAt)}`;
  }
}

function InviteDialog({ clientId, clientName }: { clientId: string; clientName: string }) {
  const [open, setOpen] = useState(false);
  const create = useCreateInvitation();
  const form = useForm<CreateInvitationInput>({ resolver: zodResolver(createInvitationInput), defaultValues: { email: '' } });
  const error = form.formState.errors.email?.message;
  const onSubmit = form.handleSubmit((values) => {
    create.mutate(
      { clientId, ...values },
      {
        onSuccess: (sent) => {
          toast.success(sent.outcome === 'linked' ? 'Account Linked' : 'Invitation Sent', { description: sent.message });
          setOpen(false);
          form.reset();
        },
        onError: (failure) => {
          const message = isApiError(failure) ? failure.fields?.['email'] : undefined;
          if (message) form.setError('email', { type: 'server', message });
          toast.error('Invitation Not Sent', { description: errorMessage(failure, 'The invitation could not be sent.') });
        },
      },
    );
  });
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) form.reset();
      }}
    >
      <DialogTrigger asChild>
        <Button>
          <UserPlus aria-hidden />
          Invite
        </Button>
      </DialogTrigger>
      <DialogContent>
        <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-4">
          <DialogHeader>
            <DialogTitle>Invite someone to {clientName}</DialogTitle>
            <DialogDescription>
              They get a link to set their name and a password; it works once, for {INVITATION_EXPIRY_DAYS} days. An address that already has a Parley account
              without a business joins at once.
            </DialogDescription>
          </DialogHeader>
          <FormField id="invite-email-address" label="Email" error={error}>
            <Input {...fieldA11y('invite-email-address', error)} type="email" autoComplete="off" placeholder="name@business.com" {...form.register('email')} />
          </FormField>
          <DialogFooter>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending ? 'Sending...' : 'Send Invitation'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

function InvitationActions({ invitation }: { invitation: InvitationView }) {
  const resend = useResendInvitation();
  const revoke = useRevokeInvitation();
  if (invitation.status === 'accepted' || invitation.status === 'revoked') return null;
  return (
    <div className="flex flex-wrap gap-2">
      <Button
        variant="outline"
        size="sm"
        disabled={resend.isPending}
        aria-label={`Resend the invitation to ${invitation.email}`}
        onClick={() =>
          resend.mutate(invitation.id, {
            onSuccess: () => toast.success('Invitation Resent', { description: `A new link went to ${invitation.email}; the previous one no longer works.` }),
            onError: (error) => toast.error('Error', { description: errorMessage(error, 'The invitation could not be resent.') }),
          })
        }
      >
        <RefreshCw aria-hidden />
        Resend
      </Button>
      <AlertDialog>
        <AlertDialogTrigger asChild>
          <Button variant="outline" size="sm" disabled={revoke.isPending} aria-label={`Revoke the invitation to ${invitation.email}`}>
            <Ban aria-hidden />
            Revoke
          </Button>
        </AlertDialogTrigger>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Revoke the invitation to {invitation.email}?</AlertDialogTitle>
            <AlertDialogDescription>Its link stops working at once. You can invite the address again later.</AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction
              className={buttonVariants({ variant: 'destructive' })}
              onClick={() =>
                revoke.mutate(invitation.id, {
                  onSuccess: () => toast.success('Invitation Revoked', { description: `The link sent to ${invitation.email} no longer works.` }),
                  onError: (error) => toast.error('Error', { description: errorMessage(error, 'The invitation could not be revoked.') }),
                })
              }
            >
              Revoke
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  );
}

function InvitationList({ clientId, clientName }: { clientId: string; clientName: string }) {
  const invitations = useInvitations(clientId);
  if (invitations.isPending) return <Skeleton className="h-32" />;
  if (invitations.isError) {
    return <LoadError message={errorMessage(invitations.error, 'The invitations could not be loaded.')} onRetry={() => void invitations.refetch()} />;
  }
  if (invitations.data.length === 0) {
    return (
      <EmptyState icon={MailPlus} title="No invitations yet">
        Invite the people of {clientName} to give them their own sign-in.
      </EmptyState>
    );
  }
  return (
    <ul aria-label={`Invitations to ${clientName}`} className="grid gap-3">
      {invitations.data.map((invitation) => {
        const badge = STATUS_BADGE[invitation.status];
        return (
          <li key={invitation.id}>
            <Card className="gap-2 py-3">
              <CardContent className="flex flex-wrap items-center justify-between gap-3 px-4">
                <div className="grid min-w-0 gap-0.5">
                  <span className="flex flex-wrap items-center gap-2">
                    <span className="font-medium break-all">{invitation.email}</span>
                    <Badge variant={badge.variant}>{badge.label}</Badge>
                  </span>
                  <span className="text-xs text-muted-foreground">
                    {statusLine(invitation)}
                    {invitation.invitedBy ? ` · invited by ${invitation.invitedBy.name}` : ''}
                  </span>
                </div>
                <InvitationActions invitation={invitation} />
              </CardContent>
            </Card>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The Invitations tab of /admin/clients (issue 17 §3): pick a client, see its invitations with their
 * status (pending, accepted, expired, revoked), Invite, Resend and Revoke. `clientId` is kept by the
 * route (in the URL).
 */
export function ClientInvitations({ clientId, onClientChange }: { clientId: string | null; onClientChange: (clientId: string) => void }) {
  const clients = useClientList();
  const chosen = clients.data?.find((c) => c.id === clientId);
  return (
    <div className="grid gap-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="grid min-w-0 flex-1 gap-2 sm:max-w-sm">
          <Label htmlFor="invitations-client">Client</Label>
          <Select value={chosen?.id ?? ''} onValueChange={onClientChange} disabled={!clients.data}>
            <SelectTrigger id="invitations-client" className="w-full">
              <SelectValue placeholder={clients.isPending ? 'Loading clients...' : 'Choose a client'} />
            </SelectTrigger>
            <SelectContent>
              {(clients.data ?? []).map((client) => (
                <SelectItem key={client.id} value={client.id}>
                  {client.companyName}
                  {client.status === 'inactive' ? ' (inactive)' : ''}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        {chosen && chosen.status === 'active' ? <InviteDialog clientId={chosen.id} clientName={chosen.companyName} /> : null}
      </div>
      {clients.isError ? <p className="text-sm text-destructive">{errorMessage(clients.error, 'The clients could not be loaded.')}</p> : null}
      {chosen ? (
        <>
          {chosen.status === 'inactive' ? (
            <p className="rounded-lg border border-dashed p-3 text-sm text-muted-foreground">
              {chosen.companyName} is deactivated: reactivate it before inviting people. Its invitations cannot be used meanwhile.
            </p>
          ) : null}
          <InvitationList clientId={chosen.id} clientName={chosen.companyName} />
        </>
      ) : clients.data && clients.data.length === 0 ? (
        <EmptyState icon={MailPlus} title="No clients yet">
          Add a client, or approve a request, before inviting people.
        </EmptyState>
      ) : (
        <p className="rounded-xl border border-dashed p-8 text-center text-sm text-muted-foreground">Choose a client to see and send its invitations.</p>
      )}
    </div>
  );
}
