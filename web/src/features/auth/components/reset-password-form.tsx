import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { toast } from 'sonner';
import { resetPasswordInput } from '@common/api/auth';
import { messages } from '@common/validation/auth';
import { scorePassword, weakPasswordMessage } from '@common/validation/password-strength';
import { PasswordStrengthMeter } from '@/components/password-strength-meter';
import { Button } from '@/components/ui/button';
import { FieldError, fieldA11y, FormField } from '@/components/ui/form-field';
import { PasswordInput } from '@/components/ui/password-input';
import { isApiError } from '@/lib/api-client';
import { useResetPassword } from '../api/reset-password';
import { INVALID_RESET_LINK, PASSWORD_UPDATED, resetFailureToast } from '../lib/messages';

export function ResetPasswordForm({
  token,
  onInvalidLink,
  onUpdated,
}: {
  token: string;
  onInvalidLink: () => void;
  onUpdated: () => void;
}) {
  const reset = useResetPassword();
  const form = useForm({
    resolver: zodResolver(resetPasswordInput),
    mode: 'onTouched',
    defaultValues: { token, password: '', confirmPassword: '' },
  });
  const { errors } = form.formState;
  const [password, confirmPassword] = useWatch({ control: form.control, name: ['password', 'confirmPassword'] });
  const mismatch = confirmPassword !== '' && confirmPassword !== password;
  const done = reset.isSuccess;
  // Spec part 1 §5: disabled while updating or when either field is empty or they differ.
  const disabled = password === '' || confirmPassword === '' || password !== confirmPassword || reset.isPending || done;

  const onSubmit = form.handleSubmit(
    (values) => {
      reset.mutate(values, {
        onSuccess: () => {
          toast.success(PASSWORD_UPDATED.title, { description: PASSWORD_UPDATED.description });
          onUpdated();
        },
        onError: (error) => {
          if (isApiError(error) && error.code === 'GONE') {
            toast.error(INVALID_RESET_LINK.title, { description: INVALID_RESET_LINK.description });
            onInvalidLink();
            return;
          }
          const { title, description } = resetFailureToast(error);
          toast.error(title, { description });
        },
      });
    },
    (invalid) => {
      if (invalid.confirmPassword) {
        toast.error('Password Mismatch', { description: 'Passwords do not match. Please try again.' });
        return;
      }
      const strength = scorePassword(password);
      if (strength.isWeak) toast.error('Weak Password', { description: weakPasswordMessage(strength.feedback) });
    },
  );

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-4">
      <FormField id="password" label="New Password" error={errors.password?.message}>
        <PasswordInput
          {...fieldA11y('password', errors.password?.message, password !== '')}
          autoComplete="new-password"
          autoFocus
          {...form.register('password')}
        />
        {password !== '' ? <PasswordStrengthMeter id="password-description" strength={scorePassword(password)} /> : null}
      </FormField>
      <FormField id="confirmPassword" label="Confirm Password">
        <PasswordInput
          {...fieldA11y('confirmPassword', mismatch ? messages.passwordsDoNotMatch : undefined)}
          autoComplete="new-password"
          {...form.register('confirmPassword')}
        />
        {mismatch ? <FieldError id="confirmPassword-error">{messages.passwordsDoNotMatch}</FieldError> : null}
      </FormField>
      <Button type="submit" className="w-full" disabled={disabled}>
        {reset.isPending ? 'Updating...' : 'Update Password'}
      </Button>
      {done ? (
        <p role="status" className="text-center text-sm text-muted-foreground">
          Taking you to sign in...
        </p>
      ) : null}
    </form>
  );
}
