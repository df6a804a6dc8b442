import { Power, PowerOff } from 'lucide-react';
import { toast } from 'sonner';
import type { ClientView } from '@common/api/channels';
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
import { Button, buttonVariants } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-client';
import { useUpdateClient } from '../api/update-client';

/**
 * Deactivate or reactivate a client (admins), after a confirmation that says what happens
 * (docs/client-dashboard.md): its users are signed out and cannot sign in, its channels stop
 * accepting messages — until it is reactivated.
 */
export function ClientStatusControl({ client }: { client: ClientView }) {
  const update = useUpdateClient();
  const active = client.status === 'active';
  const confirm = () =>
    update.mutate(
      { id: client.id, status: active ? 'inactive' : 'active' },
      {
        onSuccess: (saved) =>
          toast.success(active ? 'Client Deactivated' : 'Client Reactivated', {
            description: active
              ? `${saved.companyName}: its users are signed out and its channels accept no messages.`
              : `${saved.companyName}: its users can sign in and its channels accept messages again.`,
          }),
        onError: (error) => toast.error('Error', { description: errorMessage(error, 'The client could not be changed. Please try again.') }),
      },
    );

  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button variant={active ? 'outline' : 'default'} size="sm" disabled={update.isPending}>
          {active ? <PowerOff aria-hidden /> : <Power aria-hidden />}
          {active ? 'Deactivate' : 'Reactivate'}
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{active ? `Deactivate ${client.companyName}?` : `Reactivate ${client.companyName}?`}</AlertDialogTitle>
          <AlertDialogDescription>
            {active
              ? `Its ${client.userCount === 1 ? 'user is' : `${client.userCount} users are`} signed out at once and cannot sign in, and its ${client.channelCount === 1 ? 'channel stops' : `${client.channelCount} channels stop`} accepting messages. Its conversations and settings are kept; reactivate it to undo this.`
              : 'Its users can sign in again and its channels accept messages again.'}
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction className={active ? buttonVariants({ variant: 'destructive' }) : undefined} onClick={confirm}>
            {active ? 'Deactivate' : 'Reactivate'}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
