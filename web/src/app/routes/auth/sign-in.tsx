import { useState } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import type { SignInResponse } from '@common/api/auth';
import { AuthCard } from '@/features/auth/components/auth-card';
import { SignInForm } from '@/features/auth/components/sign-in-form';
import { SocialSignIn } from '@/features/auth/components/social-sign-in';
import { TwoFactorForm } from '@/features/auth/components/two-factor-form';
import { useLoginNotice } from '@/features/auth/hooks/use-login-notice';
import { safeRedirect } from '@/lib/redirect';
import { setSessionUser, useSession } from '@/lib/session';

export default function SignInRoute() {
  const [params] = useSearchParams();
  const redirectTo = safeRedirect(params.get('redirectTo'));
  const session = useSession();
  const [step, setStep] = useState<'password' | 'two-factor'>('password');
  useLoginNotice('sign-in');

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
        <TwoFactorForm onSignedIn={onSignedIn} onCancel={() => setStep('password')} />
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
      <SignInForm onSignedIn={onSignedIn} />
      <SocialSignIn redirectTo={redirectTo} />
    </AuthCard>
  );
}
