import { useEffect, useRef } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { Spinner } from '@/components/ui/spinner';
import { useCheckResetToken } from '@/features/auth/api/check-reset-token';
import { AuthCard } from '@/features/auth/components/auth-card';
import { ResetPasswordForm } from '@/features/auth/components/reset-password-form';
import { INVALID_RESET_LINK } from '@/features/auth/lib/messages';

/** Spec part 1 §2.9: after success, /login after 2 seconds. */
const REDIRECT_AFTER_RESET_MS = 2000;

export default function ResetPasswordRoute() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const check = useCheckResetToken(token);
  const timer = useRef<number | undefined>(undefined);
  const invalid = token === '' || check.isError || check.data?.valid === false;

  useEffect(() => {
    if (!invalid) return;
    toast.error(INVALID_RESET_LINK.title, { id: 'invalid-reset-link', description: INVALID_RESET_LINK.description });
    void navigate('/forgot-password', { replace: true });
  }, [invalid, navigate]);

  useEffect(() => () => window.clearTimeout(timer.current), []);

  if (invalid || !check.data) {
    return (
      <AuthCard title="Reset Password">
        <div className="flex items-center justify-center gap-2 py-6 text-sm text-muted-foreground">
          <Spinner />
          Checking your reset link...
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Reset Password"
      description="Choose a new password for your account."
      footer={
        <Link to="/login" className="font-medium text-primary hover:underline">
          Back to Login
        </Link>
      }
    >
      <ResetPasswordForm
        token={token}
        onInvalidLink={() => void navigate('/forgot-password', { replace: true })}
        onUpdated={() => {
          timer.current = window.setTimeout(() => void navigate('/login', { replace: true }), REDIRECT_AFTER_RESET_MS);
        }}
      />
    </AuthCard>
  );
}
