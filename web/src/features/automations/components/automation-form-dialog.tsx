import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { toast } from 'sonner';
import type { z } from 'zod';
import type { AutomationView } from '@common/api/automations';
import { CopyField } from '@/components/copy-field';
import { TriggersEditor, triggersError } from '@/components/triggers-editor';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { fieldA11y, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Textarea } from '@/components/ui/textarea';
import { useClientList } from '@/lib/api/clients';
import { isApiError } from '@/lib/api-client';
import { useCreateAutomation } from '../api/create-automation';
import { useUpdateAutomation } from '../api/update-automation';
import { automationForm, initialFormValues, NO_CLIENT, toCreateInput, toUpdateInput, type AutomationFormValues } from '../lib/automation-form';

const FIELDS = ['name', 'description', 'workflow_id', 'workflow_url', 'status', 'client_id'] as const;

/** Shown once after creation: the workflow needs it to check that a run really comes from Parley. */
export function SigningSecretNotice({ secret }: { secret: string }) {
  return (
    <div className="grid gap-3">
      <CopyField label="Signing Secret" value={secret} />
      <p className="text-xs text-muted-foreground">
        Parley signs every run it sends to the workflow URL with this secret: verify the X-Parley-Signature header (sha256= and the hex HMAC-SHA256
        of &quot;X-Parley-Timestamp.raw body&quot;) before trusting a request. It is shown only now; store it in your workflow.
      </p>
    </div>
  );
}

/**
 * Create (no `automation`) or edit an automation. Admins only: the API refuses everyone else, and
 * the screen shows the dialog to admins only.
 */
export function AutomationFormDialog({
  open,
  onOpenChange,
  automation,
  onSaved,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  automation?: AutomationView | undefined;
  onSaved?: (automation: AutomationView) => void;
}) {
  const editing = automation !== undefined;
  const create = useCreateAutomation();
  const update = useUpdateAutomation();
  const clients = useClientList({ enabled: open });
  const [secret, setSecret] = useState<string | null>(null);
  const [triggersServerError, setTriggersServerError] = useState<string | undefined>();
  const form = useForm<AutomationFormValues, unknown, z.output<typeof automationForm>>({
    resolver: zodResolver(automationForm),
    defaultValues: initialFormValues(automation),
  });
  const { errors } = form.formState;
  const clientId = useWatch({ control: form.control, name: 'client_id' });
  const pending = create.isPending || update.isPending;
  const { reset } = form;

  // Each opening starts from the automation as it is now (its status may have been toggled meanwhile).
  useEffect(() => {
    if (open) reset(initialFormValues(automation));
  }, [open, automation, reset]);

  const close = (next: boolean) => {
    onOpenChange(next);
    if (!next) {
      setSecret(null);
      setTriggersServerError(undefined);
      form.reset(initialFormValues(automation));
    }
  };

  const showFieldErrors = (error: Error) => {
    if (!isApiError(error) || !error.fields) return;
    setTriggersServerError(triggersError(error.fields, 'config.triggers') ?? triggersError(error.fields, 'config'));
    for (const field of FIELDS) {
      const message = error.fields[field];
      if (message) form.setError(field, { type: 'server', message });
    }
  };

  const onSubmit = form.handleSubmit((values) => {
    setTriggersServerError(undefined);
    if (editing) {
      update.mutate(
        { id: automation.id, ...toUpdateInput(values, automation.config) },
        {
          onSuccess: (saved) => {
            toast.success('Automation updated successfully');
            onSaved?.(saved);
            onOpenChange(false);
            form.reset(initialFormValues(saved));
          },
          onError: (error) => {
            console.error('Failed to update automation', error);
            showFieldErrors(error);
            toast.error('Failed to update automation');
          },
        },
      );
      return;
    }
    create.mutate(toCreateInput(values), {
      onSuccess: (created) => {
        toast.success('Automation created successfully');
        onSaved?.(created.automation);
        form.reset(initialFormValues(undefined));
        setSecret(created.signing_secret);
      },
      onError: (error) => {
        console.error('Failed to create automation', error);
        showFieldErrors(error);
        toast.error('Failed to create automation');
      },
    });
  });

  const text = (name: 'name' | 'workflow_id' | 'workflow_url', label: string, placeholder: string) => (
    <FormField id={`automation-${name}`} label={label} error={errors[name]?.message}>
      <Input {...fieldA11y(`automation-${name}`, errors[name]?.message)} autoComplete="off" placeholder={placeholder} {...form.register(name)} />
    </FormField>
  );

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto">
        {secret !== null ? (
          <div className="grid gap-4">
            <DialogHeader>
              <DialogTitle>Automation Created</DialogTitle>
              <DialogDescription>Copy the signing secret now: Parley will not show it again.</DialogDescription>
            </DialogHeader>
            <SigningSecretNotice secret={secret} />
            <DialogFooter>
              <Button onClick={() => close(false)}>Done</Button>
            </DialogFooter>
          </div>
        ) : (
          <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-4">
            <DialogHeader>
              <DialogTitle>{editing ? 'Edit Automation' : 'Add Automation'}</DialogTitle>
              <DialogDescription>
                {editing
                  ? 'Change the workflow this automation runs, its status, its client or the events that run it.'
                  : 'Connect a workflow that Parley starts with Run or when one of its trigger events happens.'}
              </DialogDescription>
            </DialogHeader>
            {text('name', 'Name', 'Lead follow-up')}
            <FormField id="automation-description" label="Description" error={errors.description?.message}>
              <Textarea {...fieldA11y('automation-description', errors.description?.message)} rows={3} {...form.register('description')} />
            </FormField>
            {text('workflow_id', 'Workflow ID', 'n8n workflow id')}
            {text('workflow_url', 'Workflow URL', 'https://n8n.example.com/webhook/...')}
            <FormField id="automation-status" label="Status" error={errors.status?.message}>
              <Controller
                control={form.control}
                name="status"
                render={({ field }) => (
                  <Select value={field.value} onValueChange={field.onChange}>
                    <SelectTrigger id="automation-status" className="w-full">
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      <SelectItem value="active">Active</SelectItem>
                      <SelectItem value="inactive">Inactive</SelectItem>
                      <SelectItem value="paused">Paused</SelectItem>
                      {automation?.status === 'error' ? (
                        <SelectItem value="error" disabled>
                          Error
                        </SelectItem>
                      ) : null}
                    </SelectContent>
                  </Select>
                )}
              />
            </FormField>
            <FormField id="automation-client" label="Client" error={errors.client_id?.message}>
              <Controller
                control={form.control}
                name="client_id"
                render={({ field }) => (
                  <Select value={field.value} onValueChange={field.onChange}>
                    <SelectTrigger id="automation-client" className="w-full">
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      <SelectItem value={NO_CLIENT}>No client</SelectItem>
                      {(clients.data ?? []).map((client) => (
                        <SelectItem key={client.id} value={client.id}>
                          {client.companyName}
                        </SelectItem>
                      ))}
                      {/* The current client before the list has loaded, so the select never shows blank. */}
                      {automation?.client_id && !clients.data?.some((c) => c.id === automation.client_id) ? (
                        <SelectItem value={automation.client_id}>Current client</SelectItem>
                      ) : null}
                    </SelectContent>
                  </Select>
                )}
              />
            </FormField>
            <Controller
              control={form.control}
              name="triggers"
              render={({ field }) => (
                <TriggersEditor
                  id="automation-triggers"
                  value={field.value}
                  onChange={(triggers) => {
                    setTriggersServerError(undefined);
                    field.onChange(triggers);
                  }}
                  error={triggersServerError ?? errors.triggers?.message}
                  clients={clientId === NO_CLIENT ? (clients.data ?? []).map((c) => ({ id: c.id, name: c.companyName })) : undefined}
                  clientScoped={clientId !== NO_CLIENT}
                  description={
                    clientId === NO_CLIENT
                      ? 'Events that run this automation: without a client it receives every client’s events. Each matching event starts one execution, with the event sent as its trigger.'
                      : 'Events of its client that run this automation. Each matching event starts one execution, with the event sent as its trigger.'
                  }
                />
              )}
            />
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => close(false)}>
                Cancel
              </Button>
              <Button type="submit" disabled={pending}>
                {pending ? 'Saving...' : editing ? 'Update Automation' : 'Create Automation'}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
