import { Trash2 } from 'lucide-react';
import { toast } from 'sonner';
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
import { buttonVariants } from '@/components/ui/button';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-client';
import { useDeleteKnowledgeArticle } from '../api/delete-knowledge-article';
import { useDeleteKnowledgeEntry } from '../api/delete-knowledge-entry';

/** Delete an FAQ entry or an article, after a confirmation. */
export function DeleteKnowledgeButton({ clientId, kind, id, name }: { clientId: string; kind: 'entry' | 'article'; id: string; name: string }) {
  const deleteEntry = useDeleteKnowledgeEntry(clientId);
  const deleteArticle = useDeleteKnowledgeArticle(clientId);
  const mutation = kind === 'entry' ? deleteEntry : deleteArticle;
  const what = kind === 'entry' ? 'FAQ entry' : 'article';

  const confirm = () => {
    mutation.mutate(id, {
      onSuccess: () => toast.success(kind === 'entry' ? 'FAQ Entry Deleted' : 'Article Deleted', { description: name }),
      onError: (error) => toast.error('Error', { description: errorMessage(error, `The ${what} could not be deleted.`) }),
    });
  };

  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button variant="ghost" size="sm" aria-label={`Delete the ${what} “${name}”`} disabled={mutation.isPending}>
          <Trash2 aria-hidden />
          Delete
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete this {what}?</AlertDialogTitle>
          <AlertDialogDescription>
            “{name}” leaves the knowledge base and the agent retrains without it. This cannot be undone.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction className={buttonVariants({ variant: 'destructive' })} onClick={confirm}>
            Delete
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
