import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { toast } from 'sonner';
import { twoFactorVerifyInput, type SignInResponse } from '@common/api/auth';
import { Button } from '@/components/ui/button';
import { fieldA11y, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { useVerifyTwoFactor } from '../api/verify-two-factor';
import { signInFailureToast } from '../lib/messages';

/** The second sign-in step when two-factor authentication is on: a TOTP code or a recovery code. */
export function TwoFactorForm({
  onSignedIn,
  onCancel,
}: {
  onSignedIn: (response: SignInResponse) => void;
  onCancel: () => void;
}) {
  const verify = useVerifyTwoFactor();
  const form = useForm({
    resolver: zodResolver(twoFactorVerifyInput),
    defaultValues: { code: '', kind: 'totp' as 'totp' | 'backup', trustDevice: false },
  });
  const { errors } = form.formState;
  const [code, kind] = useWatch({ control: form.control, name: ['code', 'kind'] });
  const usingBackup = kind === 'backup';

  const onSubmit = form.handleSubmit((values) => {
    verify.mutate(values, {
      onSuccess: onSignedIn,
      onError: (error) => {
        const { title, description } = signInFailureToast(error);
        toast.error(title, { description });
        form.setValue('code', '');
        form.setFocus('code');
      },
    });
  });

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-4">
      <p className="text-sm text-muted-foreground">
        {usingBackup
          ? 'Enter one of the recovery codes you saved when you turned on two-factor authentication.'
          : 'Enter the 6-digit code from your authenticator app.'}
      </p>
      <FormField
        id="two-factor-code"
        label={usingBackup ? 'Recovery code' : 'Authentication code'}
        error={errors.code?.message}
      >
        <Input
          {...fieldA11y('two-factor-code', errors.code?.message)}
          autoComplete="one-time-code"
          inputMode={usingBackup ? 'text' : 'numeric'}
          maxLength={usingBackup ? 32 : 6}
          autoFocus
          {...form.register('code')}
        />
      </FormField>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" className="size-4 accent-primary" {...form.register('trustDevice')} />
        Trust this device
      </label>
      <Button type="submit" className="w-full" disabled={code.trim() === '' || verify.isPending}>
        {verify.isPending ? 'Verifying...' : 'Verify'}
      </Button>
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
        <button
          type="button"
          className="text-primary hover:underline"
          onClick={() => {
            form.setValue('kind', usingBackup ? 'totp' : 'backup');
            form.setValue('code', '');
            form.clearErrors('code');
          }}
        >
          {usingBackup ? 'Use your authenticator app' : 'Use a recovery code instead'}
        </button>
        <button type="button" className="text-muted-foreground hover:text-foreground" onClick={onCancel}>
          Back to sign in
        </button>
      </div>
    </form>
  );
}
