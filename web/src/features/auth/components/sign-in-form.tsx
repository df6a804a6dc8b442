import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { signInInput, type SignInResponse } from '@common/api/auth';
import { Button } from '@/components/ui/button';
import { fieldA11y, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { useSignIn } from '../api/sign-in';
import { signInFailureToast } from '../lib/messages';
import { firstFormError } from '../lib/form-errors';

/** `defaultEmail`: the address a link carried (`?email=`), else empty. */
export function SignInForm({ onSignedIn, defaultEmail = '' }: { onSignedIn: (response: SignInResponse) => void; defaultEmail?: string }) {
  const signIn = useSignIn();
  const form = useForm({
    resolver: zodResolver(signInInput),
    mode: 'onTouched',
    defaultValues: { email: defaultEmail, password: '' },
  });
  const { errors } = form.formState;
  const [email, password] = useWatch({ control: form.control, name: ['email', 'password'] });
  const disabled = email === '' || password === '' || signIn.isPending;

  const onSubmit = form.handleSubmit(
    (values) => {
      signIn.mutate(values, {
        onSuccess: onSignedIn,
        onError: (error) => {
          const { title, description } = signInFailureToast(error);
          toast.error(title, { description });
        },
      });
    },
    (invalid) => {
      toast.error('Invalid Input', { description: firstFormError(invalid) });
    },
  );

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-4">
      <FormField id="email" label="Email" error={errors.email?.message}>
        <Input
          {...fieldA11y('email', errors.email?.message)}
          type="email"
          autoComplete="email"
          placeholder="you@example.com"
          {...form.register('email')}
        />
      </FormField>
      <FormField
        id="password"
        label="Password"
        error={errors.password?.message}
        action={
          <Link to="/forgot-password" className="text-sm text-primary hover:underline">
            Forgot password?
          </Link>
        }
      >
        <PasswordInput
          {...fieldA11y('password', errors.password?.message)}
          autoComplete="current-password"
          {...form.register('password')}
        />
      </FormField>
      <Button type="submit" className="w-full" disabled={disabled}>
        {signIn.isPending ? 'Signing in...' : 'Sign In'}
      </Button>
    </form>
  );
}
