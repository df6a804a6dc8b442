import { zodResolver } from '@hookform/resolvers/zod';
import { CircleCheck, CircleX, KeyRound, PlugZap, Unplug } from 'lucide-react';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import type { N8nConnectionTest, N8nConnectionView } from '@common/api/n8n';
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
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { fieldA11y, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { errorMessage, isApiError } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { useDeleteN8nConnection } from '../api/delete-n8n-connection';
import { useSaveN8nConnection } from '../api/save-n8n-connection';
import { useTestN8nConnection } from '../api/test-n8n-connection';
import { apiKeyProblem, connectionForm, toSaveConnectionInput, type ConnectionForm } from '../lib/connection-form';

/** The outcome of the last connection test: the workflow count, or n8n's exact error. */
export function ConnectionTestView({ test }: { test: N8nConnectionTest }) {
  return (
    <div
      role="status"
      data-testid="n8n-connection-test"
      className={`flex min-w-0 items-start gap-2 rounded-lg border p-3 text-sm ${test.ok ? 'border-success/40 bg-success/5' : 'border-destructive/40 bg-destructive/5'}`}
    >
      {test.ok ? <CircleCheck aria-hidden className="mt-0.5 size-4 shrink-0 text-success" /> : <CircleX aria-hidden className="mt-0.5 size-4 shrink-0 text-destructive" />}
      <div className="grid min-w-0 gap-0.5">
        <span className="font-medium break-words">{test.message}</span>
        <span className="text-xs text-muted-foreground">{`Tested ${formatDateTime(test.testedAt)}`}</span>
      </div>
    </div>
  );
}

/**
 * The base URL and API key form. The key is write-only: its field is always empty and a saved key
 * shows only as "Saved" (the server never returns it).
 */
export function ConnectionFormView({ connection }: { connection: N8nConnectionView | null }) {
  const id = useId();
  const hasApiKey = connection?.hasApiKey ?? false;
  const form = useForm<ConnectionForm>({ resolver: zodResolver(connectionForm), values: { baseUrl: connection?.baseUrl ?? '', apiKey: '' }, resetOptions: { keepDirtyValues: true } });
  const save = useSaveN8nConnection();
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((values) => {
    const missingKey = apiKeyProblem(values.apiKey, hasApiKey);
    if (missingKey !== null) {
      form.setError('apiKey', { type: 'required', message: missingKey });
      return;
    }
    // The key leaves the page with the request: the field is cleared whatever the answer.
    form.setValue('apiKey', '', { shouldDirty: false });
    save.mutate(toSaveConnectionInput(values), {
      onSuccess: (saved) => {
        form.reset({ baseUrl: saved.baseUrl, apiKey: '' });
        const test = saved.lastTest;
        if (test && !test.ok) toast.error('Settings Saved, but n8n did not answer as expected', { description: test.message });
        else toast.success('Settings Saved', { description: test?.message ?? 'The n8n connection is saved.' });
      },
      onError: (error) => {
        if (isApiError(error) && error.fields) {
          for (const [field, message] of Object.entries(error.fields)) {
            if (field === 'baseUrl' || field === 'apiKey') form.setError(field, { type: 'server', message });
          }
        }
        toast.error('Error', { description: errorMessage(error, 'The n8n connection could not be saved.') });
      },
    });
  });

  return (
    <form aria-label="n8n connection" className="grid gap-4" noValidate onSubmit={(event) => void onSubmit(event)}>
      <FormField
        id={`${id}-base`}
        label="n8n base URL"
        error={errors.baseUrl?.message}
        description="Your n8n instance's address, e.g. http://n8n.internal:5678 (without /api/v1)."
      >
        <Input
          {...fieldA11y(`${id}-base`, errors.baseUrl?.message, true)}
          type="url"
          inputMode="url"
          autoComplete="off"
          placeholder="http://localhost:5678"
          {...form.register('baseUrl')}
        />
      </FormField>
      <FormField
        id={`${id}-key`}
        label="API key"
        error={errors.apiKey?.message}
        action={hasApiKey ? <Badge variant="success">Saved</Badge> : <Badge variant="secondary">None saved</Badge>}
        description={
          hasApiKey
            ? 'A key is saved (never shown). Type a new one to replace it, or leave the field empty to keep it.'
            : 'From n8n → Settings → n8n API → Create an API key. Stored encrypted; never shown again.'
        }
      >
        <PasswordInput
          {...fieldA11y(`${id}-key`, errors.apiKey?.message, true)}
          autoComplete="new-password"
          placeholder={hasApiKey ? '•••••••• (saved)' : ''}
          {...form.register('apiKey')}
        />
      </FormField>
      <div>
        <Button type="submit" disabled={save.isPending}>
          <KeyRound aria-hidden />
          {save.isPending ? 'Saving…' : 'Save'}
        </Button>
      </div>
    </form>
  );
}

function DisconnectButton() {
  const remove = useDeleteN8nConnection();
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button type="button" variant="outline" disabled={remove.isPending}>
          <Unplug aria-hidden />
          Disconnect
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Disconnect n8n?</AlertDialogTitle>
          <AlertDialogDescription>
            Parley forgets the base URL and the API key. Imported workflows stay, but Parley can no longer list, activate or check them in n8n.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction
            onClick={() =>
              remove.mutate(undefined, {
                onSuccess: () => toast.success('n8n Disconnected'),
                onError: (error) => toast.error('Error', { description: errorMessage(error, 'The n8n connection could not be removed.') }),
              })
            }
          >
            Disconnect
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/** The installation's n8n connection (admins): save, test, disconnect. */
export function N8nConnectionCard({ connection }: { connection: N8nConnectionView | null }) {
  const test = useTestN8nConnection();
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2">
          <PlugZap aria-hidden className="size-4 text-primary" />
          n8n connection
          {connection ? (
            <Badge variant={connection.lastTest?.ok === false ? 'destructive' : 'success'}>{connection.lastTest?.ok === false ? 'Not answering' : 'Connected'}</Badge>
          ) : (
            <Badge variant="secondary">Not connected</Badge>
          )}
        </CardTitle>
        <CardDescription>
          With your instance&apos;s address and an API key, Parley lists its workflows, imports them, switches them on and off and checks how their runs ended.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {connection?.lastTest ? <ConnectionTestView test={connection.lastTest} /> : null}
        {connection?.updatedBy ? (
          <p className="text-xs text-muted-foreground">{`Saved by ${connection.updatedBy.name || 'an administrator'} on ${formatDateTime(connection.updatedAt)}`}</p>
        ) : null}
        <ConnectionFormView connection={connection} />
        {connection ? (
          <div className="flex flex-wrap gap-2 border-t pt-4">
            <Button
              type="button"
              variant="secondary"
              disabled={test.isPending}
              onClick={() =>
                test.mutate(undefined, {
                  onSuccess: (result) => (result.ok ? toast.success('Connection OK', { description: result.message }) : toast.error('Connection failed', { description: result.message })),
                  onError: (error) => toast.error('Connection failed', { description: errorMessage(error, 'The connection could not be tested.') }),
                })
              }
            >
              <PlugZap aria-hidden />
              {test.isPending ? 'Testing…' : 'Test connection'}
            </Button>
            <DisconnectButton />
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}
