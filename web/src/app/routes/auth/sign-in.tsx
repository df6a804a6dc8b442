import { useState } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import type { SignInResponse } from '@common/api/auth';
import { AuthCard } from '@/features/auth/components/auth-card';
import { SignInForm } from '@/features/auth/components/sign-in-form';
import { emailParam } from '@/features/auth/lib/email-param';
import { SocialSignIn } from '@/features/auth/components/social-sign-in';
import { TwoFactorForm } from '@/features/auth/components/two-factor-form';
import { useAuthNotice } from '@/features/auth/hooks/use-auth-notice';
import { safeRedirect } from '@/lib/redirect';
import { setSessionUser, useSession } from '@/lib/session';

export default function SignInRoute() {
  const [params, setParams] = useSearchParams();
  const redirectTo = safeRedirect(params.get('redirectTo'));
  const session = useSession();
  // After Google sign-in the server sends a user with two-factor on to /login?step=two-factor.
  const [step, setStep] = useState<'password' | 'two-factor'>(
    params.get('step') === 'two-factor' ? 'two-factor' : 'password',
  );
  useAuthNotice('sign-in');

  // Spec part 1 §2.6: a visitor already signed in goes back where they came from, else /dashboard.
  if (session.status === 'ready' && session.user) return <Navigate to={redirectTo} replace />;

  const onSignedIn = (response: SignInResponse) => {
    if (response.twoFactorRequired) {
      setStep('two-factor');
      return;
    }
    toast.success('Welcome back!');
    setSessionUser(response.user);
  };

  if (step === 'two-factor') {
    return (
      <AuthCard title="Two-Factor Authentication" description="One more step to keep your account safe.">
        <TwoFactorForm
          onSignedIn={onSignedIn}
          onCancel={() => {
            setStep('password');
            if (params.has('step')) {
              const next = new URLSearchParams(params);
              next.delete('step');
              setParams(next, { replace: true });
            }
          }}
        />
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Welcome back"
      description="Sign in to your Parley account"
      footer={
        <p>
          New to Parley?{' '}
          <Link to="/register" className="font-medium text-primary hover:underline">
            Create account
          </Link>
        </p>
      }
    >
      <SignInForm onSignedIn={onSignedIn} defaultEmail={emailParam(params)} />
      <SocialSignIn redirectTo={redirectTo} />
    </AuthCard>
  );
}
