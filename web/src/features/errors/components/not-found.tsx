import { Link } from 'react-router';
import { Button } from '@/components/ui/button';

/** Spec part 1 §2.1: "Oops! Page not found" with a link home. */
export function NotFound() {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-4 p-6 text-center">
      <p className="text-7xl font-bold tracking-tight text-primary">404</p>
      <h1 className="text-2xl font-semibold">Oops! Page not found</h1>
      <p className="max-w-md text-sm text-muted-foreground">
        The page you are looking for does not exist or has moved.
      </p>
      <Button asChild>
        <Link to="/" reloadDocument>
          Return to Home
        </Link>
      </Button>
    </main>
  );
}
