import { zodResolver } from '@hookform/resolvers/zod';
import { ShieldCheck, ShieldOff } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import type { z } from 'zod';
import { passwordInput, twoFactorCodeInput, type twoFactorSetup } from '@common/api/me';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { fieldA11y, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { errorMessage } from '@/lib/api-client';
import {
  useConfirmTwoFactor,
  useDisableTwoFactor,
  useEnableTwoFactor,
  useRegenerateBackupCodes,
} from '../api/two-factor';
import { svgDataUrl, totpSecretOf } from '../lib/user-agent';
import { RecoveryCodes } from './recovery-codes';

type Setup = z.infer<typeof twoFactorSetup>;
type Flow = 'enable' | 'disable' | 'codes';

const FLOW_TEXT: Record<Flow, { title: string; description: string; submit: string; running: string }> = {
  enable: {
    title: 'Enable Two-Factor Authentication',
    description: 'Confirm your password to start.',
    submit: 'Continue',
    running: 'Checking...',
  },
  disable: {
    title: 'Disable Two-Factor Authentication',
    description: 'Confirm your password. Signing in will then need only your password.',
    submit: 'Disable',
    running: 'Disabling...',
  },
  codes: {
    title: 'Regenerate Recovery Codes',
    description: 'Confirm your password. Your old recovery codes stop working.',
    submit: 'Regenerate',
    running: 'Generating...',
  },
};

function PasswordStep({ flow, onDone }: { flow: Flow; onDone: (result: Setup | string[] | null) => void }) {
  const enable = useEnableTwoFactor();
  const disable = useDisableTwoFactor();
  const codes = useRegenerateBackupCodes();
  const running = enable.isPending || disable.isPending || codes.isPending;
  const form = useForm({ resolver: zodResolver(passwordInput), defaultValues: { password: '' } });
  const error = form.formState.errors.password?.message;
  const text = FLOW_TEXT[flow];

  const fail = (failure: unknown) =>
    toast.error('Error', { description: errorMessage(failure, 'That did not work. Please try again.') });

  const onSubmit = form.handleSubmit(({ password }) => {
    switch (flow) {
      case 'enable':
        enable.mutate(password, { onSuccess: onDone, onError: fail });
        break;
      case 'disable':
        disable.mutate(password, {
          onSuccess: () => {
            toast.success('Two-Factor Authentication Disabled');
            onDone(null);
          },
          onError: fail,
        });
        break;
      case 'codes':
        codes.mutate(password, { onSuccess: (r) => onDone(r.backupCodes), onError: fail });
        break;
    }
  });

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-4">
      <DialogHeader>
        <DialogTitle>{text.title}</DialogTitle>
        <DialogDescription>{text.description}</DialogDescription>
      </DialogHeader>
      <FormField id="two-factor-password" label="Password" error={error}>
        <PasswordInput
          {...fieldA11y('two-factor-password', error)}
          autoComplete="current-password"
          autoFocus
          {...form.register('password')}
        />
      </FormField>
      <DialogFooter>
        <Button type="submit" variant={flow === 'disable' ? 'destructive' : 'default'} disabled={running}>
          {running ? text.running : text.submit}
        </Button>
      </DialogFooter>
    </form>
  );
}

function ConfirmStep({ setup, onDone }: { setup: Setup; onDone: () => void }) {
  const confirm = useConfirmTwoFactor();
  const form = useForm({ resolver: zodResolver(twoFactorCodeInput), defaultValues: { code: '' } });
  const error = form.formState.errors.code?.message;
  const secret = totpSecretOf(setup.totpUri);

  const onSubmit = form.handleSubmit(({ code }) => {
    confirm.mutate(code, {
      onSuccess: () => {
        toast.success('Two-Factor Authentication Enabled', {
          description: 'Signing in now asks for a code from your authenticator app.',
        });
        onDone();
      },
      onError: (failure) =>
        toast.error('Error', { description: errorMessage(failure, 'Invalid verification code. Please try again.') }),
    });
  });

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-4">
      <DialogHeader>
        <DialogTitle>Scan the QR code</DialogTitle>
        <DialogDescription>
          Scan it with an authenticator app (Google Authenticator, 1Password, Authy…), then enter the 6-digit code it
          shows.
        </DialogDescription>
      </DialogHeader>
      <img
        src={svgDataUrl(setup.qrCodeSvg)}
        alt="QR code for your authenticator app"
        className="mx-auto size-48 rounded-md bg-white p-2"
      />
      {secret ? (
        <p className="text-center text-xs text-muted-foreground">
          Cannot scan? Enter this key: <code className="font-mono break-all text-foreground">{secret}</code>
        </p>
      ) : null}
      <RecoveryCodes codes={setup.backupCodes} />
      <FormField id="two-factor-confirm-code" label="Verification code" error={error}>
        <Input
          {...fieldA11y('two-factor-confirm-code', error)}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          {...form.register('code')}
        />
      </FormField>
      <DialogFooter>
        <Button type="submit" disabled={confirm.isPending}>
          {confirm.isPending ? 'Verifying...' : 'Turn On'}
        </Button>
      </DialogFooter>
    </form>
  );
}

export function TwoFactorCard({ enabled }: { enabled: boolean }) {
  const [flow, setFlow] = useState<Flow | null>(null);
  const [setup, setSetup] = useState<Setup | null>(null);
  const [newCodes, setNewCodes] = useState<string[] | null>(null);

  const close = () => {
    setFlow(null);
    setSetup(null);
    setNewCodes(null);
  };

  const onPasswordDone = (result: Setup | string[] | null) => {
    if (result === null) close();
    else if (Array.isArray(result)) setNewCodes(result);
    else setSetup(result);
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          Two-Factor Authentication
          {enabled ? <Badge variant="success">On</Badge> : <Badge variant="secondary">Off</Badge>}
        </CardTitle>
        <CardDescription>
          {enabled
            ? 'Signing in asks for a code from your authenticator app, or a recovery code.'
            : 'Add a second step to signing in: a code from an authenticator app on your phone.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap gap-2">
        {enabled ? (
          <>
            <Button variant="outline" onClick={() => setFlow('codes')}>
              Regenerate Recovery Codes
            </Button>
            <Button variant="destructive" onClick={() => setFlow('disable')}>
              <ShieldOff aria-hidden />
              Disable
            </Button>
          </>
        ) : (
          <Button onClick={() => setFlow('enable')}>
            <ShieldCheck aria-hidden />
            Enable Two-Factor Authentication
          </Button>
        )}
      </CardContent>

      <Dialog open={flow !== null} onOpenChange={(open) => {
        if (!open) close();
      }}>
        <DialogContent>
          {flow === null ? null : newCodes ? (
            <div className="grid gap-4">
              <DialogHeader>
                <DialogTitle>New Recovery Codes</DialogTitle>
                <DialogDescription>Your previous codes no longer work.</DialogDescription>
              </DialogHeader>
              <RecoveryCodes codes={newCodes} />
              <DialogFooter>
                <Button onClick={close}>Done</Button>
              </DialogFooter>
            </div>
          ) : setup ? (
            <ConfirmStep setup={setup} onDone={close} />
          ) : (
            <PasswordStep flow={flow} onDone={onPasswordDone} />
          )}
        </DialogContent>
      </Dialog>
    </Card>
  );
}
