import { zodResolver } from '@hookform/resolvers/zod';
import { CircleCheckBig, LinkIcon, MailCheck } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { acceptInvitationInput, INVITATION_UNKNOWN_MESSAGE, type AcceptInvitationInput, type InvitationAccepted } from '@common/api/onboarding';
import { scorePassword } from '@common/validation/password-strength';
import { Logo } from '@/components/logo';
import { PasswordStrengthMeter } from '@/components/password-strength-meter';
import { Button, buttonVariants } from '@/components/ui/button';
import { fieldA11y, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage, isApiError } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { useAcceptInvitation, useJoinInvitation, usePublicInvitation } from '../api/public-invitation';

const FIELDS = ['name', 'password', 'confirmPassword'] as const;

function Panel({ icon, title, children }: { icon: ReactNode; title: string; children?: ReactNode }) {
  return (
    <div className="mx-auto grid w-full max-w-md gap-4 rounded-xl border bg-card p-6 shadow-sm sm:p-8">
      <div className="grid justify-items-center gap-3 text-center">
        <span className="flex size-12 items-center justify-center rounded-full bg-muted">{icon}</span>
        <h1 className="text-xl font-semibold">{title}</h1>
      </div>
      {children}
    </div>
  );
}

function SignInLink() {
  return (
    <Link to="/login" className={buttonVariants({ className: 'w-full' })}>
      Sign In
    </Link>
  );
}

function Accepted({ result }: { result: InvitationAccepted }) {
  return (
    <Panel icon={<CircleCheckBig aria-hidden className="size-6 text-success" />} title={result.outcome === 'created' ? 'Your account is ready' : 'You joined the business'}>
      <p className="text-center text-sm text-muted-foreground" aria-live="polite">
        {result.message}
      </p>
      <SignInLink />
    </Panel>
  );
}

function NewAccountForm({ token, email, onAccepted }: { token: string; email: string; onAccepted: (result: InvitationAccepted) => void }) {
  const accept = useAcceptInvitation(token);
  const form = useForm<AcceptInvitationInput>({
    resolver: zodResolver(acceptInvitationInput),
    mode: 'onTouched',
    defaultValues: { name: '', password: '', confirmPassword: '' },
  });
  const { errors } = form.formState;
  const [password, confirmPassword] = useWatch({ control: form.control, name: ['password', 'confirmPassword'] });
  const onSubmit = form.handleSubmit((values) => {
    accept.mutate(
      { token, ...values },
      {
        onSuccess: (result) => {
          toast.success('Account Created', { description: result.message });
          onAccepted(result);
        },
        onError: (error) => {
          if (isApiError(error) && error.fields) {
            for (const field of FIELDS) {
              const message = error.fields[field];
              if (message) form.setError(field, { type: 'server', message });
            }
          }
          toast.error('Invitation Not Accepted', { description: errorMessage(error, 'Your account could not be created. Please try again.') });
        },
      },
    );
  });
  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-4">
      <FormField id="invite-email" label="Email">
        <Input id="invite-email" type="email" value={email} readOnly aria-readonly="true" autoComplete="username" />
      </FormField>
      <FormField id="invite-name" label="Full Name" error={errors.name?.message}>
        <Input {...fieldA11y('invite-name', errors.name?.message)} autoComplete="name" {...form.register('name')} />
      </FormField>
      <FormField id="invite-password" label="Password" error={errors.password?.message}>
        <PasswordInput {...fieldA11y('invite-password', errors.password?.message, password !== '')} autoComplete="new-password" {...form.register('password')} />
        {password !== '' ? <PasswordStrengthMeter id="invite-password-description" strength={scorePassword(password)} /> : null}
      </FormField>
      <FormField id="invite-confirmPassword" label="Confirm Password" error={errors.confirmPassword?.message}>
        <PasswordInput {...fieldA11y('invite-confirmPassword', errors.confirmPassword?.message)} autoComplete="new-password" {...form.register('confirmPassword')} />
      </FormField>
      <Button type="submit" disabled={accept.isPending || password === '' || password !== confirmPassword}>
        {accept.isPending ? 'Creating your account...' : 'Create Account and Join'}
      </Button>
    </form>
  );
}

function JoinExisting({ token, email, onAccepted }: { token: string; email: string; onAccepted: (result: InvitationAccepted) => void }) {
  const join = useJoinInvitation(token);
  return (
    <div className="grid gap-3">
      <p className="text-sm text-muted-foreground">
        <span className="font-medium break-all text-foreground">{email}</span> already has a Parley account. Join with it: you keep your password and sign in as
        usual.
      </p>
      <Button
        disabled={join.isPending}
        onClick={() =>
          join.mutate(token, {
            onSuccess: (result) => {
              toast.success('Invitation Accepted', { description: result.message });
              onAccepted(result);
            },
            onError: (error) => toast.error('Invitation Not Accepted', { description: errorMessage(error, 'Your account could not join. Please try again.') }),
          })
        }
      >
        {join.isPending ? 'Joining...' : 'Join with My Account'}
      </Button>
    </div>
  );
}

/**
 * `/invite/:token` (no sign-in; the link is the credential): the business and the address the
 * invitation is for, then a name and a password for a new account — or, when the address has an
 * account, a button that makes it join. An expired, used, withdrawn or unknown link says so.
 */
export function InvitationScreen({ token }: { token: string }) {
  const invitation = usePublicInvitation(token);
  const [accepted, onAccepted] = useState<InvitationAccepted | null>(null);

  let body: ReactNode;
  if (accepted) body = <Accepted result={accepted} />;
  else if (invitation.isPending) {
    body = (
      <div className="flex justify-center py-16">
        <Spinner label="Loading your invitation" />
      </div>
    );
  } else if (invitation.isError) {
    const unknown = isApiError(invitation.error) && invitation.error.status === 404;
    body = (
      <Panel icon={<LinkIcon aria-hidden className="size-6 text-muted-foreground" />} title={unknown ? 'Invitation not found' : 'Something went wrong'}>
        <p className="text-center text-sm text-muted-foreground">{unknown ? INVITATION_UNKNOWN_MESSAGE : errorMessage(invitation.error, 'Your invitation could not be loaded.')}</p>
        {unknown ? null : (
          <Button variant="outline" onClick={() => void invitation.refetch()}>
            Try Again
          </Button>
        )}
      </Panel>
    );
  } else if (invitation.data.status !== 'pending') {
    const title = { expired: 'Invitation expired', accepted: 'Invitation already used', revoked: 'Invitation no longer valid' }[invitation.data.status];
    body = (
      <Panel icon={<LinkIcon aria-hidden className="size-6 text-muted-foreground" />} title={title}>
        <p className="text-center text-sm text-muted-foreground">{invitation.data.message}</p>
        {invitation.data.status === 'accepted' ? <SignInLink /> : null}
      </Panel>
    );
  } else {
    const view = invitation.data;
    body = (
      <Panel icon={<MailCheck aria-hidden className="size-6 text-primary" />} title={`Join ${view.clientName} on Parley`}>
        <p className="text-center text-sm text-muted-foreground">
          {view.account === 'new'
            ? 'Set your name and a password to create your account and open the business dashboard.'
            : 'Your account joins the business and opens its dashboard.'}{' '}
          This link works once, until {formatDateTime(view.expiresAt)}.
        </p>
        {view.account === 'new' ? (
          <NewAccountForm token={token} email={view.email} onAccepted={onAccepted} />
        ) : (
          <JoinExisting token={token} email={view.email} onAccepted={onAccepted} />
        )}
      </Panel>
    );
  }

  return (
    <div className="min-h-dvh bg-muted/30">
      <header className="border-b bg-background">
        <div className="mx-auto flex max-w-7xl items-center px-4 py-3 sm:px-6">
          <Logo />
        </div>
      </header>
      <main className="mx-auto grid max-w-7xl min-w-0 px-4 py-10 sm:px-6">{body}</main>
    </div>
  );
}
