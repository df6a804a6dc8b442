import { LogOut, ShieldCheck } from 'lucide-react';
import { Head } from '@/components/seo/head';
import { Button } from '@/components/ui/button';
import { TwoFactorCard } from '@/features/profile/components/two-factor-card';
import { useSignOut } from '@/lib/auth';
import { useCurrentUser } from '@/lib/session';
import { AppProviders } from '../providers/app-providers';

function TwoFactorSetup() {
  const user = useCurrentUser();
  const signOut = useSignOut();
  return (
    <main className="flex min-h-svh justify-center bg-background px-4 py-10 sm:items-center">
      <div className="grid w-full max-w-lg content-start gap-6">
        <div className="grid gap-2 text-center">
          <ShieldCheck aria-hidden className="mx-auto size-10 text-primary" />
          <h1 className="text-2xl font-semibold tracking-tight">Set up two-factor authentication</h1>
          <p className="text-sm text-muted-foreground">
            Parley requires two-factor authentication for admins and managers. Until it is on, you can only set it up here or sign
            out. You are signed in as <span className="font-medium break-all text-foreground">{user.email}</span>.
          </p>
        </div>
        <TwoFactorCard enabled={user.mfaEnabled} />
        <Button variant="ghost" className="justify-self-center" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
          <LogOut aria-hidden />
          {signOut.isPending ? 'Signing out...' : 'Sign Out'}
        </Button>
      </div>
    </main>
  );
}

/**
 * Shown instead of every page of the app to an admin or manager who must set up two-factor first
 * (Admin Settings → Security, docs/admin-settings.md). Confirming the code reloads the session,
 * which lifts the requirement and shows the page they opened.
 */
export default function TwoFactorSetupRoute() {
  return (
    <AppProviders>
      <Head title="Set up two-factor authentication" description="Two-factor authentication is required for admins and managers." />
      <TwoFactorSetup />
    </AppProviders>
  );
}
