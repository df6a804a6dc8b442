import { MailCheck } from 'lucide-react';
import { useState } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { useResendVerification } from '@/features/auth/api/resend-verification';
import { AuthCard } from '@/features/auth/components/auth-card';
import { SignUpForm } from '@/features/auth/components/sign-up-form';
import { SocialSignIn } from '@/features/auth/components/social-sign-in';
import { useAuthNotice } from '@/features/auth/hooks/use-auth-notice';
import { emailParam } from '@/features/auth/lib/email-param';
import { errorMessage } from '@/lib/api-client';
import { DEFAULT_AFTER_SIGN_IN } from '@/lib/redirect';
import { useSession } from '@/lib/session';

function CheckYourEmail({ email }: { email: string }) {
  const resend = useResendVerification();
  return (
    <AuthCard title="Check Your Email">
      <div className="flex flex-col items-center gap-3 text-center">
        <MailCheck aria-hidden className="size-10 text-primary" />
        <p className="text-sm text-muted-foreground">
          We sent a verification link to <span className="font-medium text-foreground">{email}</span>. Open it to
          activate your account; it expires in 1 hour.
        </p>
      </div>
      <div className="grid gap-2">
        <Button asChild>
          <Link to="/login">Back to Login</Link>
        </Button>
        <Button
          variant="outline"
          disabled={resend.isPending}
          onClick={() =>
            resend.mutate(email, {
              onSuccess: () => toast.success('Verification Email Sent', { description: `A new link is on its way to ${email}.` }),
              onError: (error) =>
                toast.error('Could Not Send Email', { description: errorMessage(error, 'Please try again in a minute.') }),
            })
          }
        >
          {resend.isPending ? 'Sending...' : 'Resend Verification Email'}
        </Button>
      </div>
    </AuthCard>
  );
}

export default function SignUpRoute() {
  const session = useSession();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [params] = useSearchParams();
  useAuthNotice('sign-up');

  // Spec part 1 §2.7: a signed-in visitor goes to /dashboard.
  if (session.status === 'ready' && session.user) return <Navigate to={DEFAULT_AFTER_SIGN_IN} replace />;
  if (sentTo) return <CheckYourEmail email={sentTo} />;

  return (
    <AuthCard
      title="Create your account"
      description="Start answering every customer message with AI"
      footer={
        <p>
          Already have an account?{' '}
          <Link to="/login" className="font-medium text-primary hover:underline">
            Sign in
          </Link>
        </p>
      }
    >
      <SignUpForm onSignedUp={setSentTo} defaultEmail={emailParam(params)} />
      <SocialSignIn redirectTo={DEFAULT_AFTER_SIGN_IN} />
    </AuthCard>
  );
}
