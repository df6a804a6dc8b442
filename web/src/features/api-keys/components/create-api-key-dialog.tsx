import { Plus } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { API_SCOPE_LABELS, API_SCOPES, type ApiScope } from '@common/api/api-scopes';
import { API_KEY_NAME_MAX, type CreatedApiKey } from '@common/api/api-keys';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { FieldError, FormField, fieldA11y } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { errorMessage, isApiError } from '@/lib/api-client';
import { useCreateApiKey } from '../api/create-api-key';
import type { ApiKeyKind } from '../api/keys';
import { NewApiKey } from './new-api-key';

export const EXPIRY_CHOICES = [
  { value: 'never', label: 'Never', days: null },
  { value: '30', label: '30 days', days: 30 },
  { value: '90', label: '90 days', days: 90 },
  { value: '365', label: '1 year', days: 365 },
] as const;
type Expiry = (typeof EXPIRY_CHOICES)[number]['value'];

export function expiresAtFor(expiry: Expiry, now: Date = new Date()): string | null {
  const days = EXPIRY_CHOICES.find((c) => c.value === expiry)?.days ?? null;
  return days === null ? null : new Date(now.getTime() + days * 86_400_000).toISOString();
}

/** The form's fields; `errors` are the server's (or the form's own) messages per field. */
export function CreateApiKeyFields({
  name,
  expiry,
  scopes,
  errors,
  onName,
  onExpiry,
  onScope,
}: {
  name: string;
  expiry: Expiry;
  scopes: readonly ApiScope[];
  errors: Record<string, string>;
  onName?: (name: string) => void;
  onExpiry?: (expiry: Expiry) => void;
  onScope?: (scope: ApiScope, checked: boolean) => void;
}) {
  return (
    <div className="grid min-w-0 gap-4">
      <FormField id="api-key-name" label="Name" error={errors.name} description="What uses it, e.g. “Zapier” or “CRM sync”.">
        <Input {...fieldA11y('api-key-name', errors.name, true)} value={name} maxLength={API_KEY_NAME_MAX} onChange={(e) => onName?.(e.target.value)} />
      </FormField>
      <FormField id="api-key-expiry" label="Expires after" error={errors.expiresAt}>
        <Select value={expiry} onValueChange={(value) => onExpiry?.(value as Expiry)}>
          <SelectTrigger id="api-key-expiry" className="w-full sm:w-48">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {EXPIRY_CHOICES.map((choice) => (
              <SelectItem key={choice.value} value={choice.value}>
                {choice.label}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </FormField>
      <fieldset className="grid min-w-0 gap-2" aria-describedby={errors.scopes ? 'api-key-scopes-error' : undefined}>
        <legend className="mb-2 text-sm font-medium">Scopes</legend>
        {API_SCOPES.map((scope) => (
          <label key={scope} className="flex min-w-0 items-start gap-2 text-sm">
            <input
              type="checkbox"
              className="mt-0.5 size-4 shrink-0 accent-primary"
              checked={scopes.includes(scope)}
              onChange={(e) => onScope?.(scope, e.target.checked)}
            />
            <span className="grid min-w-0 gap-0.5">
              <span>{API_SCOPE_LABELS[scope]}</span>
              <code className="font-mono text-xs break-all text-muted-foreground">{scope}</code>
            </span>
          </label>
        ))}
        {errors.scopes ? <FieldError id="api-key-scopes-error">{errors.scopes}</FieldError> : null}
      </fieldset>
    </div>
  );
}

/** "Create API key": name, expiry and scopes; then the key, shown once. */
export function CreateApiKeyDialog({ kind }: { kind: ApiKeyKind }) {
  const create = useCreateApiKey(kind);
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [expiry, setExpiry] = useState<Expiry>('90');
  const [scopes, setScopes] = useState<ApiScope[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [created, setCreated] = useState<CreatedApiKey | null>(null);

  const reset = () => {
    setName('');
    setExpiry('90');
    setScopes([]);
    setErrors({});
    setCreated(null);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const own: Record<string, string> = {};
    if (name.trim() === '') own.name = 'Please enter a name';
    if (scopes.length === 0) own.scopes = 'Choose at least one scope';
    setErrors(own);
    if (Object.keys(own).length > 0) return;
    create.mutate(
      { name, scopes, expiresAt: expiresAtFor(expiry) },
      {
        onSuccess: (result) => {
          setCreated(result);
          toast.success('API Key Created', { description: `“${result.apiKey.name}” — copy it now.` });
        },
        onError: (error) => {
          if (isApiError(error) && error.fields) setErrors(error.fields);
          toast.error('Error', { description: errorMessage(error, 'The API key could not be created.') });
        },
      },
    );
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) reset();
      }}
    >
      <DialogTrigger asChild>
        <Button>
          <Plus aria-hidden />
          Create API key
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{created ? 'Your new API key' : kind === 'service' ? 'Create a service account key' : 'Create an API key'}</DialogTitle>
          <DialogDescription>
            {created
              ? `“${created.apiKey.name}” works from now on.`
              : kind === 'service'
                ? 'It acts as you, an administrator, with only the scopes you choose.'
                : 'It acts as you, with only the scopes you choose.'}
          </DialogDescription>
        </DialogHeader>
        {created ? (
          <>
            <NewApiKey created={created} />
            <DialogFooter>
              <Button
                type="button"
                onClick={() => {
                  setOpen(false);
                  reset();
                }}
              >
                Done
              </Button>
            </DialogFooter>
          </>
        ) : (
          <form className="grid min-w-0 gap-4" onSubmit={submit} noValidate>
            <CreateApiKeyFields
              name={name}
              expiry={expiry}
              scopes={scopes}
              errors={errors}
              onName={setName}
              onExpiry={setExpiry}
              onScope={(scope, checked) => setScopes((current) => (checked ? [...current, scope] : current.filter((s) => s !== scope)))}
            />
            <DialogFooter>
              <Button type="submit" disabled={create.isPending}>
                Create key
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
