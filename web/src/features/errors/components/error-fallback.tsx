/**
 * The generic error screen (spec part 1 §2.2): "Something went wrong" with Try Again and Go Home.
 * It is part of the first bundle, so it uses plain markup rather than the UI kit.
 */
export function ErrorFallback({ error }: { error: Error }) {
  return (
    <main className="flex min-h-dvh items-center justify-center p-6">
      <title>Something went wrong | Parley</title>
      <div className="w-full max-w-md rounded-xl border bg-card p-8 text-center shadow-sm">
        <h1 className="text-2xl font-semibold">Something went wrong</h1>
        <p className="mt-3 text-sm text-muted-foreground">
          An unexpected error stopped this page. Try again, or go back to the home page.
        </p>
        {import.meta.env.DEV ? (
          <pre className="mt-4 overflow-auto rounded-md bg-muted p-3 text-left text-xs">{error.message}</pre>
        ) : null}
        <div className="mt-6 flex flex-col justify-center gap-2 sm:flex-row">
          <button
            type="button"
            onClick={() => window.location.reload()}
            className="inline-flex h-9 items-center justify-center rounded-md bg-primary px-4 text-sm font-medium text-primary-foreground hover:bg-primary/90"
          >
            Try Again
          </button>
          <a
            href="/"
            className="inline-flex h-9 items-center justify-center rounded-md border border-input px-4 text-sm font-medium hover:bg-accent"
          >
            Go Home
          </a>
        </div>
      </div>
    </main>
  );
}
