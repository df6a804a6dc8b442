import { Pencil, Plus } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { WorkflowKind, WorkflowView } from '@common/api/workflows';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { fieldA11y, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { isApiError } from '@/lib/api-client';
import { useCreateWorkflow } from '../api/create-workflow';
import { useUpdateWorkflow } from '../api/update-workflow';
import { checkRequired, errorFeedback, savedFeedback } from '../lib/feedback';
import { KIND_WORDS } from '../lib/status';
import { toCreateWorkflowInput, toUpdateWorkflowInput, workflowFormValues, type WorkflowFormValues } from '../lib/workflow-form';
import { showError, showSuccess } from './show';

const SERVER_FIELDS: Record<string, keyof WorkflowFormValues> = {
  name: 'name',
  description: 'description',
  webhookUrl: 'webhookUrl',
  appIntegrations: 'apps',
};

/** Create (no `workflow`) or edit an n8n workflow or a zap; name and webhook URL are required. */
export function WorkflowFormDialog({ kind, workflow }: { kind: WorkflowKind; workflow?: WorkflowView }) {
  const [open, setOpen] = useState(false);
  const create = useCreateWorkflow();
  const update = useUpdateWorkflow();
  const form = useForm<WorkflowFormValues>({ defaultValues: workflowFormValues(workflow) });
  const { errors } = form.formState;
  const editing = workflow !== undefined;
  const words = KIND_WORDS[kind];
  const pending = create.isPending || update.isPending;
  const prefix = `${kind}-${workflow?.id ?? 'new'}`;

  const onSubmit = form.handleSubmit((values) => {
    const missing = checkRequired(values);
    if (missing) {
      if (values.name.trim() === '') form.setError('name', { message: 'Name is required' });
      if (values.webhookUrl.trim() === '') form.setError('webhookUrl', { message: 'Webhook URL is required' });
      showError(missing);
      return;
    }
    const callbacks = {
      onSuccess: (saved: WorkflowView) => {
        showSuccess(savedFeedback(kind, editing, saved.name));
        setOpen(false);
        form.reset(workflowFormValues(editing ? saved : undefined));
      },
      onError: (error: Error) => {
        if (isApiError(error) && error.fields) {
          for (const [key, message] of Object.entries(error.fields)) {
            const field = SERVER_FIELDS[key.split('.')[0] ?? key];
            if (field) form.setError(field, { type: 'server', message });
          }
        }
        showError(errorFeedback(error, `The ${words.noun.toLowerCase()} could not be saved.`));
      },
    };
    if (editing) update.mutate({ id: workflow.id, ...toUpdateWorkflowInput(kind, values) }, callbacks);
    else create.mutate(toCreateWorkflowInput(kind, values), callbacks);
  });

  const title = `${editing ? 'Edit' : 'Create'} ${words.noun}`;
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        form.reset(workflowFormValues(workflow));
      }}
    >
      <DialogTrigger asChild>
        {editing ? (
          <Button variant="outline" size="sm" aria-label={`Edit ${workflow.name}`}>
            <Pencil aria-hidden />
            Edit
          </Button>
        ) : (
          <Button>
            <Plus aria-hidden />
            {title}
          </Button>
        )}
      </DialogTrigger>
      <DialogContent className="grid-cols-1">
        <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid min-w-0 grid-cols-1 gap-4">
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            <DialogDescription>
              {kind === 'n8n'
                ? 'An n8n workflow and the webhook URL that starts it. New workflows start as drafts.'
                : 'A Zapier zap, its catch-hook URL and the apps it connects. New zaps start as drafts.'}
            </DialogDescription>
          </DialogHeader>
          <FormField id={`${prefix}-name`} label="Name *" error={errors.name?.message}>
            <Input {...fieldA11y(`${prefix}-name`, errors.name?.message)} autoComplete="off" {...form.register('name')} />
          </FormField>
          <FormField id={`${prefix}-description`} label="Description" error={errors.description?.message}>
            <Textarea {...fieldA11y(`${prefix}-description`, errors.description?.message)} rows={3} {...form.register('description')} />
          </FormField>
          <FormField id={`${prefix}-url`} label="Webhook URL *" error={errors.webhookUrl?.message}>
            <Input
              {...fieldA11y(`${prefix}-url`, errors.webhookUrl?.message)}
              type="url"
              inputMode="url"
              autoComplete="off"
              placeholder={kind === 'n8n' ? 'https://n8n.example.com/webhook/...' : 'https://hooks.zapier.com/hooks/catch/...'}
              {...form.register('webhookUrl')}
            />
          </FormField>
          {kind === 'zapier' ? (
            <FormField id={`${prefix}-apps`} label="App Integrations" description="One app per line, e.g. Gmail, Slack." error={errors.apps?.message}>
              <Textarea {...fieldA11y(`${prefix}-apps`, errors.apps?.message, true)} rows={3} {...form.register('apps')} />
            </FormField>
          ) : null}
          {editing && workflow.n8nWorkflowId ? (
            <p className="text-xs text-muted-foreground">
              Linked to n8n workflow {workflow.n8nWorkflowId}. Changing these fields changes Parley&apos;s record only, not the workflow in n8n.
            </p>
          ) : null}
          <DialogFooter>
            <Button type="submit" disabled={pending}>
              {pending ? 'Saving...' : editing ? 'Save Changes' : title}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
