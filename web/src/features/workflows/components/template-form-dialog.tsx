import { FileUp, Pencil, Plus } from 'lucide-react';
import { useEffect, useState, type ChangeEvent } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import type { TemplateView } from '@common/api/workflows';
import { TriggersEditor, triggersError } from '@/components/triggers-editor';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { fieldA11y, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage, isApiError } from '@/lib/api-client';
import { useTemplateN8nWorkflow } from '../api/get-template-n8n-workflow';
import { useCreateTemplate } from '../api/create-template';
import { useUpdateTemplate } from '../api/update-template';
import { checkRequired, errorFeedback } from '../lib/feedback';
import { parseN8nJson, templateFormValues, toCreateTemplateInput, toUpdateTemplateInput, type TemplateFormValues } from '../lib/template-form';
import { showError, showSuccess } from './show';

const SERVER_FIELDS: Record<string, keyof TemplateFormValues> = {
  name: 'name',
  description: 'description',
  type: 'type',
  webhookUrl: 'webhookUrl',
  workflowConfig: 'webhookUrl',
  n8nWorkflowJson: 'n8nJson',
};

/** The largest workflow file read into the field (the server takes 512 KB at most). */
const MAX_FILE_BYTES = 512 * 1024;

/**
 * Create (no `template`) or edit a template: name, description, type, the workflow config
 * (webhook URL and triggers) and, for n8n, an optional importable n8n workflow JSON.
 */
export function TemplateFormDialog({ template }: { template?: TemplateView }) {
  const [open, setOpen] = useState(false);
  const editing = template !== undefined;
  const hadJson = template?.hasN8nWorkflow ?? false;
  const stored = useTemplateN8nWorkflow(template?.id ?? '', open && hadJson);
  const create = useCreateTemplate();
  const update = useUpdateTemplate();
  const form = useForm<TemplateFormValues>({ defaultValues: templateFormValues(template, undefined) });
  const [triggersServerError, setTriggersServerError] = useState<string | undefined>();
  const { errors } = form.formState;
  const pending = create.isPending || update.isPending;
  const prefix = `template-${template?.id ?? 'new'}`;
  const type = useWatch({ control: form.control, name: 'type' });
  const jsonLoading = hadJson && stored.isPending;

  // The stored workflow JSON arrives after the dialog opens: put it in the field once.
  const storedJson = stored.data;
  useEffect(() => {
    if (open && storedJson) form.setValue('n8nJson', JSON.stringify(storedJson, null, 2));
  }, [open, storedJson, form]);

  const readFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (file.size > MAX_FILE_BYTES) {
      form.setError('n8nJson', { message: 'The file is larger than 512 KB.' });
      return;
    }
    void file.text().then((text) => {
      form.setValue('n8nJson', text);
      form.clearErrors('n8nJson');
    });
  };

  const onSubmit = form.handleSubmit((values) => {
    setTriggersServerError(undefined);
    const missing = checkRequired(values);
    if (missing) {
      if (values.name.trim() === '') form.setError('name', { message: 'Name is required' });
      if (values.webhookUrl.trim() === '') form.setError('webhookUrl', { message: 'Webhook URL is required' });
      showError(missing);
      return;
    }
    const json = values.type === 'n8n' ? parseN8nJson(values.n8nJson) : ({ ok: true, value: null } as const);
    if (!json.ok) {
      form.setError('n8nJson', { message: json.error });
      showError({ title: 'Error', description: json.error });
      return;
    }
    const callbacks = {
      onSuccess: (saved: TemplateView) => {
        showSuccess({ title: editing ? 'Template Updated' : 'Template Created', description: saved.name });
        setOpen(false);
        form.reset(templateFormValues(editing ? saved : undefined, undefined));
      },
      onError: (error: Error) => {
        if (isApiError(error) && error.fields) {
          setTriggersServerError(triggersError(error.fields, 'workflowConfig.triggers'));
          for (const [key, message] of Object.entries(error.fields)) {
            if (key.startsWith('workflowConfig.triggers')) continue;
            const path = key.split('.');
            const field = SERVER_FIELDS[path[path.length - 1] ?? key] ?? SERVER_FIELDS[path[0] ?? key];
            if (field) form.setError(field, { type: 'server', message });
          }
        }
        showError(errorFeedback(error, 'The template could not be saved.'));
      },
    };
    if (editing) update.mutate({ id: template.id, ...toUpdateTemplateInput(values, json.value, hadJson && stored.isSuccess) }, callbacks);
    else create.mutate(toCreateTemplateInput(values, json.value), callbacks);
  });

  const title = editing ? 'Edit Template' : 'Create Template';
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        setTriggersServerError(undefined);
        form.reset(templateFormValues(template, next ? stored.data : undefined));
      }}
    >
      <DialogTrigger asChild>
        {editing ? (
          <Button variant="outline" size="sm" aria-label={`Edit ${template.name}`}>
            <Pencil aria-hidden />
            Edit
          </Button>
        ) : (
          <Button>
            <Plus aria-hidden />
            Create Template
          </Button>
        )}
      </DialogTrigger>
      <DialogContent className="grid-cols-1">
        <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid min-w-0 grid-cols-1 gap-4">
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            <DialogDescription>
              Assigning a template to a client creates that client&apos;s automation from it: its name, webhook URL and triggers. New templates start as
              drafts.
            </DialogDescription>
          </DialogHeader>
          <FormField id={`${prefix}-name`} label="Name *" error={errors.name?.message}>
            <Input {...fieldA11y(`${prefix}-name`, errors.name?.message)} autoComplete="off" {...form.register('name')} />
          </FormField>
          <FormField id={`${prefix}-description`} label="Description" error={errors.description?.message}>
            <Textarea {...fieldA11y(`${prefix}-description`, errors.description?.message)} rows={2} {...form.register('description')} />
          </FormField>
          <FormField
            id={`${prefix}-type`}
            label="Type"
            description={editing ? 'The type of a template cannot change; clone it and create a new one instead.' : undefined}
            error={errors.type?.message}
          >
            <Controller
              control={form.control}
              name="type"
              render={({ field }) => (
                <Select value={field.value} onValueChange={field.onChange} disabled={editing}>
                  <SelectTrigger id={`${prefix}-type`} className="w-full" aria-describedby={editing ? `${prefix}-type-description` : undefined}>
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    <SelectItem value="n8n">n8n</SelectItem>
                    <SelectItem value="zapier">Zapier</SelectItem>
                  </SelectContent>
                </Select>
              )}
            />
          </FormField>
          <FormField id={`${prefix}-url`} label="Webhook URL *" error={errors.webhookUrl?.message}>
            <Input
              {...fieldA11y(`${prefix}-url`, errors.webhookUrl?.message)}
              type="url"
              inputMode="url"
              autoComplete="off"
              placeholder="https://n8n.example.com/webhook/..."
              {...form.register('webhookUrl')}
            />
          </FormField>
          <Controller
            control={form.control}
            name="triggers"
            render={({ field }) => (
              <TriggersEditor
                id={`${prefix}-triggers`}
                value={field.value}
                onChange={(triggers) => {
                  setTriggersServerError(undefined);
                  field.onChange(triggers);
                }}
                error={triggersServerError}
                clientScoped
                description="Events that run the automation each assigned client gets: it receives only that client's events. Each matching event starts one execution, with the event sent as its trigger."
              />
            )}
          />
          {type === 'n8n' ? (
            <FormField
              id={`${prefix}-json`}
              label="n8n Workflow JSON"
              description="Optional: the workflow as n8n exports it (nodes and connections), offered for download so it can be imported into n8n."
              error={errors.n8nJson?.message ?? (stored.isError ? errorMessage(stored.error, 'The stored workflow could not be loaded.') : undefined)}
              action={
                <label className="inline-flex cursor-pointer items-center gap-1 text-xs font-medium text-primary hover:underline">
                  <FileUp aria-hidden className="size-3.5" />
                  Load file
                  <input type="file" accept="application/json,.json" className="sr-only" onChange={readFile} />
                </label>
              }
            >
              <Textarea
                {...fieldA11y(`${prefix}-json`, errors.n8nJson?.message, true)}
                rows={6}
                spellCheck={false}
                disabled={jsonLoading}
                placeholder={jsonLoading ? 'Loading the stored workflow...' : '{ "nodes": [...], "connections": {...} }'}
                className="max-h-64 font-mono text-xs [field-sizing:fixed]"
                {...form.register('n8nJson')}
              />
            </FormField>
          ) : null}
          <DialogFooter>
            <Button type="submit" disabled={pending || jsonLoading}>
              {pending ? 'Saving...' : editing ? 'Save Changes' : 'Create Template'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
