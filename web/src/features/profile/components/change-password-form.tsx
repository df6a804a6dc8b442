import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { toast } from 'sonner';
import { changePasswordInput } from '@common/api/auth';
import { PASSWORD_MIN } from '@common/validation/auth';
import { scorePassword, weakPasswordMessage } from '@common/validation/password-strength';
import { PasswordStrengthMeter } from '@/components/password-strength-meter';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { fieldA11y, FormField } from '@/components/ui/form-field';
import { PasswordInput } from '@/components/ui/password-input';
import { errorMessage, isApiError } from '@/lib/api-client';
import { useChangePassword } from '../api/change-password';

const EMPTY = { currentPassword: '', newPassword: '', confirmPassword: '', revokeOtherSessions: true };

/**
 * Spec part 2 Security tab, with the sign-up password policy (8+ characters, complexity and the
 * shared strength check) rather than the prototype's 6 characters.
 */
export function ChangePasswordForm() {
  const change = useChangePassword();
  const form = useForm({ resolver: zodResolver(changePasswordInput), defaultValues: EMPTY });
  const { errors } = form.formState;
  const [currentPassword, newPassword] = useWatch({ control: form.control, name: ['currentPassword', 'newPassword'] });
  const disabled = change.isPending || currentPassword === '' || newPassword === '';

  const onSubmit = form.handleSubmit(
    (values) => {
      change.mutate(values, {
        onSuccess: () => {
          toast.success('Password Updated', { description: 'Your password has been changed successfully.' });
          form.reset(EMPTY);
        },
        onError: (error) => {
          const fieldMessage = isApiError(error) ? error.fields?.['currentPassword'] : undefined;
          if (fieldMessage) form.setError('currentPassword', { type: 'server', message: fieldMessage });
          toast.error('Password Change Failed', {
            description: errorMessage(error, 'Failed to change password. Please try again.'),
          });
        },
      });
    },
    (invalid) => {
      if (invalid.confirmPassword) {
        toast.error('Password Mismatch', { description: "New password and confirm password don't match." });
      } else if (newPassword.length < PASSWORD_MIN) {
        toast.error('Password Too Short', { description: 'Password must be at least 8 characters long.' });
      } else if (scorePassword(newPassword).isWeak) {
        toast.error('Weak Password', { description: weakPasswordMessage(scorePassword(newPassword).feedback) });
      }
    },
  );

  return (
    <Card>
      <CardHeader>
        <CardTitle>Change Password</CardTitle>
        <CardDescription>Enter your current password, then the new one twice.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid max-w-md gap-4">
          <FormField id="currentPassword" label="Current Password" error={errors.currentPassword?.message}>
            <PasswordInput
              {...fieldA11y('currentPassword', errors.currentPassword?.message)}
              autoComplete="current-password"
              {...form.register('currentPassword')}
            />
          </FormField>
          <FormField id="newPassword" label="New Password" error={errors.newPassword?.message}>
            <PasswordInput
              {...fieldA11y('newPassword', errors.newPassword?.message, newPassword !== '')}
              autoComplete="new-password"
              {...form.register('newPassword')}
            />
            {newPassword !== '' ? (
              <PasswordStrengthMeter id="newPassword-description" strength={scorePassword(newPassword)} />
            ) : null}
          </FormField>
          <FormField id="confirmNewPassword" label="Confirm New Password" error={errors.confirmPassword?.message}>
            <PasswordInput
              {...fieldA11y('confirmNewPassword', errors.confirmPassword?.message)}
              autoComplete="new-password"
              {...form.register('confirmPassword')}
            />
          </FormField>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" className="size-4 accent-primary" {...form.register('revokeOtherSessions')} />
            Sign out of my other sessions
          </label>
          <p className="rounded-md bg-muted/50 p-3 text-xs text-muted-foreground">
            Tip: use at least 8 characters with upper and lower case letters, numbers and symbols.
          </p>
          <div>
            <Button type="submit" disabled={disabled}>
              {change.isPending ? 'Changing Password...' : 'Change Password'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
