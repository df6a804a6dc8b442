import { zodResolver } from '@hookform/resolvers/zod';
import { Pencil, Plus } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import type { z } from 'zod';
import { knowledgeArticleInput, type KnowledgeArticleView } from '@common/api/agents';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { fieldA11y, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage, isApiError } from '@/lib/api-client';
import { useCreateKnowledgeArticle } from '../api/create-knowledge-article';
import { useUpdateKnowledgeArticle } from '../api/update-knowledge-article';

type ArticleForm = z.input<typeof knowledgeArticleInput>;
const initialValues = (article?: KnowledgeArticleView): ArticleForm => ({ title: article?.title ?? '', body: article?.body ?? '' });

/** Add an article (no `article`) or edit one: longer text the agent quotes from. */
export function ArticleDialog({ clientId, article }: { clientId: string; article?: KnowledgeArticleView }) {
  const [open, setOpen] = useState(false);
  const create = useCreateKnowledgeArticle(clientId);
  const update = useUpdateKnowledgeArticle(clientId);
  const form = useForm<ArticleForm, unknown, z.output<typeof knowledgeArticleInput>>({
    resolver: zodResolver(knowledgeArticleInput),
    defaultValues: initialValues(article),
  });
  const { errors } = form.formState;
  const editing = article !== undefined;
  const pending = create.isPending || update.isPending;

  const onSubmit = form.handleSubmit((values) => {
    const callbacks = {
      onSuccess: () => {
        toast.success(editing ? 'Article Saved' : 'Article Added', { description: 'The agent retrains with it in the background.' });
        setOpen(false);
        form.reset(initialValues());
      },
      onError: (error: Error) => {
        if (isApiError(error) && error.fields) {
          for (const field of ['title', 'body'] as const) {
            const message = error.fields[field];
            if (message) form.setError(field, { type: 'server', message });
          }
        }
        toast.error('Error', { description: errorMessage(error, 'The article could not be saved.') });
      },
    };
    if (editing) update.mutate({ id: article.id, values }, callbacks);
    else create.mutate({ ...values }, callbacks);
  });

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) form.reset(initialValues(article));
      }}
    >
      <DialogTrigger asChild>
        {editing ? (
          <Button variant="outline" size="sm" aria-label={`Edit the article “${article.title}”`}>
            <Pencil aria-hidden />
            Edit
          </Button>
        ) : (
          <Button size="sm" variant="outline">
            <Plus aria-hidden />
            Add Article
          </Button>
        )}
      </DialogTrigger>
      <DialogContent className="sm:max-w-2xl">
        <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-4">
          <DialogHeader>
            <DialogTitle>{editing ? 'Edit Article' : 'Add Article'}</DialogTitle>
            <DialogDescription>Policies, product details, anything longer than an FAQ answer.</DialogDescription>
          </DialogHeader>
          <FormField id="article-title" label="Title" error={errors.title?.message}>
            <Input {...fieldA11y('article-title', errors.title?.message)} autoComplete="off" {...form.register('title')} />
          </FormField>
          <FormField id="article-body" label="Text" error={errors.body?.message}>
            <Textarea {...fieldA11y('article-body', errors.body?.message)} rows={10} className="max-h-[50dvh]" {...form.register('body')} />
          </FormField>
          <DialogFooter>
            <Button type="submit" disabled={pending}>
              {pending ? 'Saving...' : editing ? 'Save Changes' : 'Add Article'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
