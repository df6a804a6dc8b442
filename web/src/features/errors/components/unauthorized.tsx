import { ShieldAlert } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';

export const ACCESS_DENIED_TEXT =
  "You don't have permission to access this page. Please contact your administrator if you believe this is an error.";

/** Spec part 2 "Route access": the Access Denied screen with buttons to the dashboard and home. */
export function Unauthorized() {
  return (
    <main className="flex min-h-dvh items-center justify-center p-6">
      <div className="w-full max-w-md rounded-xl border bg-card p-8 text-center shadow-sm">
        <span className="mx-auto flex size-12 items-center justify-center rounded-full bg-destructive/15">
          <ShieldAlert aria-hidden className="size-6 text-destructive" />
        </span>
        <h1 className="mt-4 text-2xl font-semibold">Access Denied</h1>
        <p className="mt-3 text-sm text-muted-foreground">{ACCESS_DENIED_TEXT}</p>
        <div className="mt-6 flex flex-col justify-center gap-2 sm:flex-row">
          <Button asChild>
            <Link to="/dashboard">Go to Dashboard</Link>
          </Button>
          <Button asChild variant="outline">
            <Link to="/" reloadDocument>
              Go Home
            </Link>
          </Button>
        </div>
      </div>
    </main>
  );
}
