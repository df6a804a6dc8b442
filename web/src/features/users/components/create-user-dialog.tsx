import { zodResolver } from '@hookform/resolvers/zod';
import { UserPlus } from 'lucide-react';
import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { toast } from 'sonner';
import { createUserInput } from '@common/api/users';
import { ROLES, roleLabel, type Role } from '@common/roles';
import { scorePassword } from '@common/validation/password-strength';
import { PasswordStrengthMeter } from '@/components/password-strength-meter';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { fieldA11y, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { errorMessage, isApiError } from '@/lib/api-client';
import { useCreateUser } from '../api/create-user';
import { useClientList } from '@/lib/api/clients';

const EMPTY = { name: '', email: '', password: '', role: 'client' as Role, clientId: null as string | null };
/** Radix Select items cannot have an empty value. */
const NO_CLIENT = 'none';
const FIELDS = ['name', 'email', 'password', 'role', 'clientId'] as const;

export function CreateUserDialog() {
  const [open, setOpen] = useState(false);
  const create = useCreateUser();
  const form = useForm({ resolver: zodResolver(createUserInput), mode: 'onTouched', defaultValues: EMPTY });
  const { errors } = form.formState;
  const password = useWatch({ control: form.control, name: 'password' });
  const role = useWatch({ control: form.control, name: 'role' });
  const clients = useClientList({ enabled: open && role === 'client' });

  const onSubmit = form.handleSubmit((values) => {
    create.mutate(values, {
      onSuccess: (user) => {
        toast.success('User Created', { description: `${user.email} can now sign in as ${roleLabel(user.role)}.` });
        form.reset(EMPTY);
        setOpen(false);
      },
      onError: (error) => {
        if (isApiError(error) && error.fields) {
          for (const field of FIELDS) {
            const message = error.fields[field];
            if (message) form.setError(field, { type: 'server', message });
          }
        }
        toast.error('User Not Created', { description: errorMessage(error, 'Failed to create the user. Please try again.') });
      },
    });
  });

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) form.reset(EMPTY);
      }}
    >
      <DialogTrigger asChild>
        <Button>
          <UserPlus aria-hidden />
          Create User
        </Button>
      </DialogTrigger>
      <DialogContent>
        <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-4">
          <DialogHeader>
            <DialogTitle>Create User</DialogTitle>
            <DialogDescription>The account is active at once and its e-mail counts as verified.</DialogDescription>
          </DialogHeader>
          <FormField id="new-user-name" label="Full Name" error={errors.name?.message}>
            <Input {...fieldA11y('new-user-name', errors.name?.message)} autoComplete="off" {...form.register('name')} />
          </FormField>
          <FormField id="new-user-email" label="Email" error={errors.email?.message}>
            <Input
              {...fieldA11y('new-user-email', errors.email?.message)}
              type="email"
              autoComplete="off"
              {...form.register('email')}
            />
          </FormField>
          <FormField id="new-user-password" label="Password" error={errors.password?.message}>
            <PasswordInput
              {...fieldA11y('new-user-password', errors.password?.message)}
              autoComplete="new-password"
              {...form.register('password')}
            />
            {password !== '' ? <PasswordStrengthMeter strength={scorePassword(password)} /> : null}
          </FormField>
          <FormField id="new-user-role" label="Role" error={errors.role?.message}>
            <Controller
              control={form.control}
              name="role"
              render={({ field }) => (
                <Select
                  value={field.value}
                  onValueChange={(value) => {
                    field.onChange(value);
                    if (value !== 'client') form.setValue('clientId', null);
                  }}
                >
                  <SelectTrigger id="new-user-role" className="w-full">
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    {ROLES.map((role) => (
                      <SelectItem key={role} value={role}>
                        {roleLabel(role)}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              )}
            />
          </FormField>
          {role === 'client' ? (
            <FormField
              id="new-user-client"
              label="Client"
              error={errors.clientId?.message}
              description="The business this user belongs to: they see its conversations only."
            >
              <Controller
                control={form.control}
                name="clientId"
                render={({ field }) => (
                  <Select value={field.value ?? NO_CLIENT} onValueChange={(value) => field.onChange(value === NO_CLIENT ? null : value)}>
                    <SelectTrigger {...fieldA11y('new-user-client', errors.clientId?.message, true)} className="w-full">
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      <SelectItem value={NO_CLIENT}>No client yet</SelectItem>
                      {(clients.data ?? []).map((client) => (
                        <SelectItem key={client.id} value={client.id}>
                          {client.companyName}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                )}
              />
            </FormField>
          ) : null}
          <DialogFooter>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending ? 'Creating...' : 'Create User'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
