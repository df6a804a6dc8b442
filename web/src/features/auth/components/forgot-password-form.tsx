import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { toast } from 'sonner';
import { forgotPasswordInput } from '@common/api/auth';
import { Button } from '@/components/ui/button';
import { fieldA11y, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { useRequestPasswordReset } from '../api/forgot-password';
import { forgotPasswordFailureMessage } from '../lib/messages';

/** Spec part 2 §5: errors show inline after submitting and clear as soon as the user types. */
export function ForgotPasswordForm({ onSent }: { onSent: (email: string) => void }) {
  const request = useRequestPasswordReset();
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm({
    resolver: zodResolver(forgotPasswordInput),
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
    defaultValues: { email: '' },
  });
  const email = useWatch({ control: form.control, name: 'email' });
  const error = form.formState.errors.email?.message ?? serverError ?? undefined;
  const field = form.register('email', {
    onChange: () => {
      form.clearErrors('email');
      setServerError(null);
    },
  });

  const onSubmit = form.handleSubmit((values) => {
    setServerError(null);
    request.mutate(values, {
      onSuccess: () => {
        toast.success('Password Reset Email Sent', { description: 'Check your inbox for a link to reset your password.' });
        onSent(values.email);
      },
      onError: (failure) => setServerError(forgotPasswordFailureMessage(failure)),
    });
  });

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-4">
      <FormField id="email" label="Email" error={error}>
        <Input
          {...fieldA11y('email', error)}
          // type="email" would silently drop surrounding spaces and block the spec's own checks.
          type="text"
          inputMode="email"
          autoComplete="email"
          placeholder="you@example.com"
          autoFocus
          {...field}
        />
      </FormField>
      <Button type="submit" className="w-full" disabled={email === '' || request.isPending}>
        {request.isPending ? 'Sending...' : 'Send Reset Link'}
      </Button>
    </form>
  );
}
