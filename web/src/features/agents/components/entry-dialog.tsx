import { Pencil, Plus, X } from 'lucide-react';
import { useState } from 'react';
import { useFieldArray, useForm, type FieldPath } from 'react-hook-form';
import { toast } from 'sonner';
import { MAX_QUESTIONS_PER_ENTRY, type KnowledgeEntryInput, type KnowledgeEntryView } from '@common/api/agents';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { FieldError, fieldA11y, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage, isApiError } from '@/lib/api-client';
import { useCreateKnowledgeEntry } from '../api/create-knowledge-entry';
import { useUpdateKnowledgeEntry } from '../api/update-knowledge-entry';
import { entryFieldErrors, entryFormResolver, toEntryForm, toNewEntryForm, type EntryForm } from '../lib/knowledge-form';

/**
 * Add an FAQ entry (no `entry`) or edit one: several ways customers ask, one answer, an optional
 * link. `prefill`: a new entry's questions from a link (the AI Summary's "New FAQ entry"): the form
 * opens at once with them, and `onClosed` runs when it closes, saved or not.
 */
export function EntryDialog({ clientId, entry, prefill, onClosed }: { clientId: string; entry?: KnowledgeEntryView; prefill?: readonly string[]; onClosed?: () => void }) {
  const [open, setOpen] = useState(prefill !== undefined);
  const create = useCreateKnowledgeEntry(clientId);
  const update = useUpdateKnowledgeEntry(clientId);
  const form = useForm<EntryForm, unknown, KnowledgeEntryInput>({ resolver: entryFormResolver, defaultValues: prefill ? toNewEntryForm(prefill) : toEntryForm(entry) });
  const questions = useFieldArray({ control: form.control, name: 'questions' });
  const { errors } = form.formState;
  const editing = entry !== undefined;
  const pending = create.isPending || update.isPending;
  const title = editing ? 'Edit FAQ Entry' : 'Add FAQ Entry';

  const onSubmit = form.handleSubmit((values) => {
    const callbacks = {
      onSuccess: () => {
        toast.success(editing ? 'FAQ Entry Saved' : 'FAQ Entry Added', { description: 'The agent retrains with it in the background.' });
        setOpen(false);
        form.reset(toEntryForm());
        onClosed?.();
      },
      onError: (error: Error) => {
        if (isApiError(error) && error.fields) {
          const fields = entryFieldErrors(Object.entries(error.fields).map(([path, message]) => ({ path, message })));
          for (const [name, message] of Object.entries(fields)) form.setError(name as FieldPath<EntryForm>, { type: 'server', message });
        }
        toast.error('Error', { description: errorMessage(error, 'The FAQ entry could not be saved.') });
      },
    };
    if (editing) update.mutate({ id: entry.id, values }, callbacks);
    else create.mutate(values, callbacks);
  });

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) form.reset(toEntryForm(entry));
        else onClosed?.();
      }}
    >
      <DialogTrigger asChild>
        {editing ? (
          <Button variant="outline" size="sm" aria-label={`Edit the entry “${entry.questions[0] ?? ''}”`}>
            <Pencil aria-hidden />
            Edit
          </Button>
        ) : (
          <Button size="sm">
            <Plus aria-hidden />
            Add FAQ Entry
          </Button>
        )}
      </DialogTrigger>
      <DialogContent className="sm:max-w-xl">
        <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-4">
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            <DialogDescription>
              {prefill
                ? 'Customers asked these questions and the agent had no answer. Check them, write the answer, then add the entry.'
                : 'Write the question the ways customers ask it; the agent learns to recognise all of them.'}
            </DialogDescription>
          </DialogHeader>
          <fieldset className="grid gap-2">
            <legend className="mb-2 text-sm font-medium">Example questions</legend>
            {questions.fields.map((field, index) => {
              const message = errors.questions?.[index]?.text?.message;
              const id = `entry-question-${index}`;
              return (
                <div key={field.id} className="grid gap-1">
                  <div className="flex items-center gap-2">
                    <Input
                      {...fieldA11y(id, message)}
                      aria-label={`Example question ${index + 1}`}
                      autoComplete="off"
                      {...form.register(`questions.${index}.text`)}
                    />
                    <Button
                      type="button"
                      variant="ghost"
                      size="icon"
                      aria-label={`Remove question ${index + 1}`}
                      disabled={questions.fields.length === 1}
                      onClick={() => questions.remove(index)}
                    >
                      <X aria-hidden />
                    </Button>
                  </div>
                  {message ? <FieldError id={`${id}-error`}>{message}</FieldError> : null}
                </div>
              );
            })}
            {errors.questions?.root?.message ? <FieldError>{errors.questions.root.message}</FieldError> : null}
            <Button
              type="button"
              variant="outline"
              size="sm"
              className="justify-self-start"
              disabled={questions.fields.length >= MAX_QUESTIONS_PER_ENTRY}
              onClick={() => questions.append({ text: '' })}
            >
              <Plus aria-hidden />
              Add question
            </Button>
          </fieldset>
          <FormField id="entry-answer" label="Answer" error={errors.answer?.message}>
            <Textarea {...fieldA11y('entry-answer', errors.answer?.message)} rows={4} {...form.register('answer')} />
          </FormField>
          <FormField id="entry-link" label="Link (optional)" error={errors.link?.message} description="A page with more detail, sent with the answer.">
            <Input {...fieldA11y('entry-link', errors.link?.message, true)} type="url" placeholder="https://" autoComplete="off" {...form.register('link')} />
          </FormField>
          <DialogFooter>
            <Button type="submit" disabled={pending}>
              {pending ? 'Saving...' : editing ? 'Save Changes' : 'Add Entry'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
