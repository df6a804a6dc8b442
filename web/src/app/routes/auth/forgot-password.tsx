import { MailCheck } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { AuthCard } from '@/features/auth/components/auth-card';
import { ForgotPasswordForm } from '@/features/auth/components/forgot-password-form';

export default function ForgotPasswordRoute() {
  const [sentTo, setSentTo] = useState<string | null>(null);

  if (sentTo !== null) {
    return (
      <AuthCard title="Check Your Email">
        <div className="flex flex-col items-center gap-3 text-center">
          <MailCheck aria-hidden className="size-10 text-primary" />
          <p className="text-sm text-muted-foreground">
            If an account exists for <span className="font-medium text-foreground">{sentTo}</span>, we have sent it a
            link to reset the password. The link expires in 1 hour.
          </p>
        </div>
        <div className="grid gap-2">
          {/* Spec part 1 §2.8: back to the form, with the e-mail cleared. */}
          <Button variant="outline" onClick={() => setSentTo(null)}>
            Send Another Email
          </Button>
          <Button asChild>
            <Link to="/login">Back to Login</Link>
          </Button>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Forgot Password"
      description="Enter your email and we will send you a link to reset your password."
      footer={
        <Link to="/login" className="font-medium text-primary hover:underline">
          Back to Login
        </Link>
      }
    >
      <ForgotPasswordForm onSent={setSentTo} />
    </AuthCard>
  );
}
