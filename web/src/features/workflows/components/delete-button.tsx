import { Trash2 } from 'lucide-react';
import { WORKFLOW_TEXTS } from '@common/api/workflows';
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

/** Delete after 'Are you sure you want to delete "{name}"?'. */
export function DeleteButton({ noun, name, pending, onConfirm, note }: { noun: string; name: string; pending: boolean; onConfirm: () => void; note?: string }) {
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button variant="ghost" size="sm" aria-label={`Delete ${name}`} disabled={pending} className="text-destructive hover:text-destructive">
          <Trash2 aria-hidden />
          Delete
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete {noun}</AlertDialogTitle>
          <AlertDialogDescription>{WORKFLOW_TEXTS.deleteConfirm(name)}</AlertDialogDescription>
          {note ? <p className="text-sm text-muted-foreground">{note}</p> : null}
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction className={buttonVariants({ variant: 'destructive' })} onClick={onConfirm}>
            Delete
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
