import { KeyRound, Settings, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import type { AutomationView } from '@common/api/automations';
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
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { errorMessage } from '@/lib/api-client';
import { useDeleteAutomation } from '../api/delete-automation';
import { useRotateSigningSecret } from '../api/rotate-signing-secret';
import { SigningSecretNotice } from './automation-form-dialog';

/** An admin's actions on one automation: Configure (the edit dialog), a new signing secret, delete. */
export function AutomationAdminActions({ automation, onConfigure, onDeleted }: { automation: AutomationView; onConfigure: () => void; onDeleted: () => void }) {
  const rotate = useRotateSigningSecret();
  const remove = useDeleteAutomation();
  const [secret, setSecret] = useState<string | null>(null);

  const newSecret = () =>
    rotate.mutate(automation.id, {
      onSuccess: (created) => setSecret(created.signing_secret),
      onError: (error) => toast.error('Error', { description: errorMessage(error, 'The signing secret could not be replaced.') }),
    });

  const confirmDelete = () =>
    remove.mutate(automation.id, {
      onSuccess: () => {
        toast.success('Automation deleted', { description: automation.name });
        onDeleted();
      },
      onError: (error) => toast.error('Error', { description: errorMessage(error, 'The automation could not be deleted.') }),
    });

  return (
    <div className="flex flex-wrap gap-2">
      <Button variant="outline" size="sm" onClick={onConfigure}>
        <Settings aria-hidden />
        Configure
      </Button>
      <AlertDialog>
        <AlertDialogTrigger asChild>
          <Button variant="outline" size="sm" disabled={rotate.isPending}>
            <KeyRound aria-hidden />
            New Secret
          </Button>
        </AlertDialogTrigger>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Replace the signing secret?</AlertDialogTitle>
            <AlertDialogDescription>
              Runs of “{automation.name}” are signed with a new secret from now on; a workflow still checking the old one refuses them until you give it the new one.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction onClick={newSecret}>Replace Secret</AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
      <AlertDialog>
        <AlertDialogTrigger asChild>
          <Button variant="ghost" size="sm" disabled={remove.isPending}>
            <Trash2 aria-hidden />
            Delete
          </Button>
        </AlertDialogTrigger>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Delete this automation?</AlertDialogTitle>
            <AlertDialogDescription>“{automation.name}” goes with its execution history and messages. This cannot be undone.</AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction className={buttonVariants({ variant: 'destructive' })} onClick={confirmDelete}>
              Delete
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
      <Dialog open={secret !== null} onOpenChange={(open) => (open ? undefined : setSecret(null))}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>New Signing Secret</DialogTitle>
            <DialogDescription>Copy it now: Parley will not show it again.</DialogDescription>
          </DialogHeader>
          {secret !== null ? <SigningSecretNotice secret={secret} /> : null}
          <DialogFooter>
            <Button onClick={() => setSecret(null)}>Done</Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </div>
  );
}
