import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { toast } from 'sonner';
import { signUpInput } from '@common/api/auth';
import { messages } from '@common/validation/auth';
import { scorePassword } from '@common/validation/password-strength';
import { PasswordStrengthMeter } from '@/components/password-strength-meter';
import { Button } from '@/components/ui/button';
import { FieldError, fieldA11y, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { isApiError } from '@/lib/api-client';
import { useSignUp } from '../api/sign-up';
import { signUpFailureToast } from '../lib/messages';

const FIELDS = ['name', 'email', 'password', 'confirmPassword'] as const;

/** `defaultEmail`: the address a link carried (`?email=`, onboarding's "Create your account"), else empty. */
export function SignUpForm({ onSignedUp, defaultEmail = '' }: { onSignedUp: (email: string) => void; defaultEmail?: string }) {
  const signUp = useSignUp();
  const form = useForm({
    resolver: zodResolver(signUpInput),
    mode: 'onTouched',
    defaultValues: { name: '', email: defaultEmail, password: '', confirmPassword: '' },
  });
  const { errors } = form.formState;
  const [name, email, password, confirmPassword] = useWatch({
    control: form.control,
    name: ['name', 'email', 'password', 'confirmPassword'],
  });
  const mismatch = confirmPassword !== '' && confirmPassword !== password;
  // Spec part 1 §2.7: disabled while name, email or password is empty or the two passwords differ.
  const disabled = name === '' || email === '' || password === '' || password !== confirmPassword || signUp.isPending;

  const onSubmit = form.handleSubmit((values) => {
    signUp.mutate(values, {
      onSuccess: (response) => {
        toast.success('Account Created', { description: 'Please check your email to verify your account.' });
        onSignedUp(response.email);
      },
      onError: (error) => {
        if (isApiError(error) && error.fields) {
          for (const field of FIELDS) {
            const message = error.fields[field];
            if (message) form.setError(field, { type: 'server', message });
          }
        }
        const { title, description } = signUpFailureToast(error);
        toast.error(title, { description });
      },
    });
  });

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-4">
      <FormField id="name" label="Full Name" error={errors.name?.message}>
        <Input
          {...fieldA11y('name', errors.name?.message)}
          autoComplete="name"
          placeholder="Jane Doe"
          {...form.register('name')}
        />
      </FormField>
      <FormField id="email" label="Email" error={errors.email?.message}>
        <Input
          {...fieldA11y('email', errors.email?.message)}
          type="email"
          autoComplete="email"
          placeholder="you@example.com"
          {...form.register('email')}
        />
      </FormField>
      <FormField id="password" label="Password" error={errors.password?.message}>
        <PasswordInput
          {...fieldA11y('password', errors.password?.message, password !== '')}
          autoComplete="new-password"
          {...form.register('password')}
        />
        {password !== '' ? <PasswordStrengthMeter id="password-description" strength={scorePassword(password)} /> : null}
      </FormField>
      <FormField id="confirmPassword" label="Confirm Password">
        <PasswordInput
          {...fieldA11y('confirmPassword', mismatch ? messages.passwordsDoNotMatch : errors.confirmPassword?.message)}
          autoComplete="new-password"
          {...form.register('confirmPassword')}
        />
        {mismatch ? (
          <FieldError id="confirmPassword-error">{messages.passwordsDoNotMatch}</FieldError>
        ) : errors.confirmPassword?.message ? (
          <FieldError id="confirmPassword-error">{errors.confirmPassword.message}</FieldError>
        ) : null}
      </FormField>
      <Button type="submit" className="w-full" disabled={disabled}>
        {signUp.isPending ? 'Creating Account...' : 'Create Account'}
      </Button>
    </form>
  );
}
