import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { updateProfileInput } from '@common/api/me';
import type { CurrentUser } from '@common/api/users';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { fieldA11y, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { isApiError } from '@/lib/api-client';
import { useUpdateProfile } from '../api/update-profile';

const FIELDS = ['fullName', 'phone', 'company'] as const;

export function ProfileForm({ user }: { user: CurrentUser }) {
  const update = useUpdateProfile();
  const form = useForm({
    resolver: zodResolver(updateProfileInput),
    mode: 'onTouched',
    defaultValues: { fullName: user.name, avatarUrl: user.avatarUrl, phone: user.phone ?? '', company: user.company ?? '' },
  });
  const { errors, isDirty } = form.formState;

  const onSubmit = form.handleSubmit((values) => {
    // The avatar is saved by the picker; send the current one, not the one this form started with.
    update.mutate({ ...values, avatarUrl: user.avatarUrl }, {
      onSuccess: (saved) => {
        toast.success('Profile Updated', { description: 'Your profile information has been saved successfully.' });
        form.reset({ fullName: saved.name, avatarUrl: saved.avatarUrl, phone: saved.phone ?? '', company: saved.company ?? '' });
      },
      onError: (error) => {
        if (isApiError(error) && error.fields) {
          for (const field of FIELDS) {
            const message = error.fields[field];
            if (message) form.setError(field, { type: 'server', message });
          }
        }
        toast.error('Update Failed', { description: 'Failed to update profile. Please try again.' });
      },
    });
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Profile Information</CardTitle>
        <CardDescription>Your name and contact details.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-4 md:grid-cols-2">
          <FormField id="fullName" label="Full Name" error={errors.fullName?.message}>
            <Input {...fieldA11y('fullName', errors.fullName?.message)} autoComplete="name" {...form.register('fullName')} />
          </FormField>
          <FormField id="profile-email" label="Email" description="Your sign-in e-mail cannot be changed here.">
            <Input {...fieldA11y('profile-email', undefined, true)} type="email" value={user.email} readOnly />
          </FormField>
          <FormField id="phone" label="Phone" error={errors.phone?.message}>
            <Input
              {...fieldA11y('phone', errors.phone?.message)}
              type="tel"
              autoComplete="tel"
              placeholder="+1 555 0100"
              {...form.register('phone')}
            />
          </FormField>
          <FormField id="company" label="Company" error={errors.company?.message}>
            <Input
              {...fieldA11y('company', errors.company?.message)}
              autoComplete="organization"
              {...form.register('company')}
            />
          </FormField>
          <div className="md:col-span-2">
            <Button type="submit" disabled={update.isPending || !isDirty}>
              {update.isPending ? 'Saving...' : 'Save Changes'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
