import { zodResolver } from '@hookform/resolvers/zod';
import { Pencil, Plus } from 'lucide-react';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { toast } from 'sonner';
import type { z } from 'zod';
import { createClientInput, type ClientView } from '@common/api/channels';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { fieldA11y, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { errorMessage, isApiError } from '@/lib/api-client';
import { useCreateClient } from '../api/create-client';
import { useUpdateClient } from '../api/update-client';

type ClientForm = z.input<typeof createClientInput>;
const FIELDS = ['companyName', 'contactPerson', 'email', 'phone', 'status'] as const;

function initialValues(client: ClientView | undefined): ClientForm {
  return {
    companyName: client?.companyName ?? '',
    contactPerson: client?.contactPerson ?? '',
    email: client?.email ?? '',
    phone: client?.phone ?? '',
    status: client?.status ?? 'active',
  };
}

/** Add Client (no `client`) or edit one. Admins only: the API refuses everyone else. */
export function ClientFormDialog({ client, onSaved }: { client?: ClientView; onSaved?: (client: ClientView) => void }) {
  const [open, setOpen] = useState(false);
  const create = useCreateClient();
  const update = useUpdateClient();
  const form = useForm<ClientForm, unknown, z.output<typeof createClientInput>>({
    resolver: zodResolver(createClientInput),
    defaultValues: initialValues(client),
  });
  const { errors } = form.formState;
  const pending = create.isPending || update.isPending;
  const editing = client !== undefined;

  const onSubmit = form.handleSubmit((values) => {
    const callbacks = {
      onSuccess: (saved: ClientView) => {
        toast.success(editing ? 'Client Updated' : 'Client Created', { description: saved.companyName });
        setOpen(false);
        form.reset(initialValues(editing ? saved : undefined));
        onSaved?.(saved);
      },
      onError: (error: Error) => {
        if (isApiError(error) && error.fields) {
          for (const field of FIELDS) {
            const message = error.fields[field];
            if (message) form.setError(field, { type: 'server', message });
          }
        }
        toast.error('Error', { description: errorMessage(error, 'The client could not be saved.') });
      },
    };
    // Editing leaves the status alone: deactivating has consequences and its own confirmation
    // (ClientStatusControl in the profile).
    if (editing) {
      const { status: _status, ...details } = values;
      update.mutate({ id: client.id, ...details }, callbacks);
    } else create.mutate(values, callbacks);
  });

  const field = (name: 'companyName' | 'contactPerson' | 'email' | 'phone', label: string, type = 'text') => (
    <FormField id={`client-${name}`} label={label} error={errors[name]?.message}>
      <Input {...fieldA11y(`client-${name}`, errors[name]?.message)} type={type} autoComplete="off" {...form.register(name)} />
    </FormField>
  );

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) form.reset(initialValues(client));
      }}
    >
      <DialogTrigger asChild>
        {editing ? (
          <Button variant="outline" size="sm">
            <Pencil aria-hidden />
            Edit
          </Button>
        ) : (
          <Button>
            <Plus aria-hidden />
            Add Client
          </Button>
        )}
      </DialogTrigger>
      <DialogContent>
        <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-4">
          <DialogHeader>
            <DialogTitle>{editing ? 'Edit Client' : 'Add Client'}</DialogTitle>
            <DialogDescription>
              {editing ? 'Change the business details. Deactivate or reactivate it from its profile.' : 'A business Parley answers for. Connect its channels afterwards.'}
            </DialogDescription>
          </DialogHeader>
          {field('companyName', 'Company Name')}
          {field('contactPerson', 'Contact Person')}
          {field('email', 'Email', 'email')}
          {field('phone', 'Phone', 'tel')}
          {editing ? null : (
            <FormField id="client-status" label="Status" error={errors.status?.message}>
              <Controller
                control={form.control}
                name="status"
                render={({ field: status }) => (
                  <Select value={status.value} onValueChange={status.onChange}>
                    <SelectTrigger id="client-status" className="w-full">
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      <SelectItem value="active">Active</SelectItem>
                      <SelectItem value="inactive">Inactive</SelectItem>
                    </SelectContent>
                  </Select>
                )}
              />
            </FormField>
          )}
          <DialogFooter>
            <Button type="submit" disabled={pending}>
              {pending ? 'Saving...' : editing ? 'Save Changes' : 'Add Client'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
