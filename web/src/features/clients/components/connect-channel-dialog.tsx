import { Plug } from 'lucide-react';
import { useState, type ChangeEvent } from 'react';
import { toast } from 'sonner';
import type { z } from 'zod';
import { channelKind, type createdChannel } from '@common/api/channels';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { fieldA11y, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { CHANNEL_KIND_LABEL } from '@common/messaging/channel-label';
import { errorMessage, isApiError } from '@/lib/api-client';
import { useCreateChannel } from '../api/create-channel';
import {
  EMPTY_CONNECT_FORM,
  EXTERNAL_ID_LABEL,
  fieldsFor,
  validateConnectForm,
  type ConnectChannelForm,
  type ConnectField,
} from '../lib/channels';
import { ChannelSecrets } from './channel-secrets';

type CreatedChannel = z.infer<typeof createdChannel>;

const LABEL: Record<Exclude<ConnectField, 'externalId'>, string> = {
  name: 'Name',
  accessToken: 'Access Token',
  appSecret: 'App Secret',
  verifyToken: 'Verify Token',
  callbackUrl: 'Callback URL',
  signingSecret: 'Signing Secret',
};

const HINT: Partial<Record<ConnectField, string>> = {
  name: 'Optional; the kind of channel when left empty.',
  verifyToken: 'Optional: Parley generates one when left empty and shows it once.',
  signingSecret: 'Optional: Parley generates one when left empty and shows it once.',
  callbackUrl: 'Parley POSTs every reply here, signed with the signing secret.',
  accessToken: 'Stored encrypted; never shown again.',
  appSecret: 'Verifies the signature of every webhook delivery; stored encrypted.',
};

const SECRET_FIELDS: readonly ConnectField[] = ['accessToken', 'appSecret', 'verifyToken', 'signingSecret'];

/** Connect a channel to a client (admins). Afterwards it shows what to paste into the platform, once. */
export function ConnectChannelDialog({ clientId }: { clientId: string }) {
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState<ConnectChannelForm>(EMPTY_CONNECT_FORM);
  const [errors, setErrors] = useState<Partial<Record<ConnectField, string>>>({});
  const [created, setCreated] = useState<CreatedChannel | null>(null);
  const create = useCreateChannel();

  const reset = () => {
    setForm(EMPTY_CONNECT_FORM);
    setErrors({});
    setCreated(null);
    create.reset();
  };

  const set = (field: keyof ConnectChannelForm, value: string) => {
    setForm((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const submit = () => {
    const result = validateConnectForm(clientId, form);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    create.mutate(result.input, {
      onSuccess: (channel) => {
        toast.success('Channel Connected', { description: `${channel.name} (${CHANNEL_KIND_LABEL[channel.kind]})` });
        setCreated(channel);
      },
      onError: (error) => {
        if (isApiError(error) && error.fields) {
          const next: Partial<Record<ConnectField, string>> = {};
          for (const [key, message] of Object.entries(error.fields)) {
            const field = ['phoneNumberId', 'pageId', 'accountId'].includes(key) ? 'externalId' : key;
            if ((fieldsFor(form.kind) as string[]).includes(field)) next[field as ConnectField] = message;
          }
          setErrors(next);
        }
        toast.error('Error', { description: errorMessage(error, 'The channel could not be connected.') });
      },
    });
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
        <Button size="sm">
          <Plug aria-hidden />
          Connect Channel
        </Button>
      </DialogTrigger>
      <DialogContent className="sm:max-w-xl">
        {created ? (
          <div className="grid gap-4">
            <DialogHeader>
              <DialogTitle>Channel connected</DialogTitle>
              <DialogDescription>
                {created.verifyToken || created.signingSecret
                  ? 'Copy the secrets below now: Parley shows them only this once.'
                  : 'Everything the platform needs is below.'}
              </DialogDescription>
            </DialogHeader>
            <ChannelSecrets channel={created} />
            <DialogFooter>
              <Button onClick={() => setOpen(false)}>Done</Button>
            </DialogFooter>
          </div>
        ) : (
          <form
            noValidate
            className="grid gap-4"
            onSubmit={(event) => {
              event.preventDefault();
              submit();
            }}
          >
            <DialogHeader>
              <DialogTitle>Connect Channel</DialogTitle>
              <DialogDescription>Where this client&apos;s customers write from.</DialogDescription>
            </DialogHeader>
            <FormField id="channel-kind" label="Channel Type">
              <Select
                value={form.kind}
                onValueChange={(value) => {
                  setForm({ ...EMPTY_CONNECT_FORM, kind: channelKind.parse(value) });
                  setErrors({});
                }}
              >
                <SelectTrigger id="channel-kind" className="w-full">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {channelKind.options.map((kind) => (
                    <SelectItem key={kind} value={kind}>
                      {CHANNEL_KIND_LABEL[kind]}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </FormField>
            {fieldsFor(form.kind).map((field) => {
              const id = `channel-${field}`;
              const label = field === 'externalId' ? EXTERNAL_ID_LABEL[form.kind] : LABEL[field];
              const common = {
                ...fieldA11y(id, errors[field], HINT[field] !== undefined),
                value: form[field],
                onChange: (event: ChangeEvent<HTMLInputElement>) => set(field, event.target.value),
                autoComplete: 'off',
              };
              return (
                <FormField key={`${form.kind}-${field}`} id={id} label={label} error={errors[field]} description={HINT[field]}>
                  {SECRET_FIELDS.includes(field) ? (
                    <PasswordInput {...common} />
                  ) : (
                    <Input
                      {...common}
                      type={field === 'callbackUrl' ? 'url' : 'text'}
                      placeholder={field === 'name' ? CHANNEL_KIND_LABEL[form.kind] : undefined}
                    />
                  )}
                </FormField>
              );
            })}
            {form.kind === 'webchat' ? (
              <p className="text-sm text-muted-foreground">Website chat needs no credentials: you get a snippet to paste into the site.</p>
            ) : null}
            <DialogFooter>
              <Button type="submit" disabled={create.isPending}>
                {create.isPending ? 'Connecting...' : 'Connect Channel'}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
