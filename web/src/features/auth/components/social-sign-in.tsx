import { useProviders } from '../api/get-providers';

function GoogleMark() {
  return (
    <svg aria-hidden viewBox="0 0 24 24" className="size-4">
      <path fill="#EA4335" d="M12 10.2v3.9h5.5c-.2 1.3-1.6 3.8-5.5 3.8-3.3 0-6-2.7-6-6.1s2.7-6.1 6-6.1c1.9 0 3.1.8 3.8 1.5l2.6-2.5C16.8 3.2 14.6 2.2 12 2.2 6.6 2.2 2.3 6.6 2.3 12s4.3 9.8 9.7 9.8c5.6 0 9.3-3.9 9.3-9.5 0-.6-.1-1.1-.2-1.6z" />
    </svg>
  );
}

/**
 * "Continue with Google": a full-page navigation to the server, which runs the OpenID Connect flow
 * and comes back to `redirectTo`. Shown only when the server has Google configured.
 */
export function SocialSignIn({ redirectTo }: { redirectTo: string }) {
  const providers = useProviders();
  if (!providers.data?.google) return null;
  const href = `/api/v1/auth/social/google?redirectTo=${encodeURIComponent(redirectTo)}`;
  return (
    <div className="grid gap-4">
      <div className="flex items-center gap-3 text-xs text-muted-foreground uppercase">
        <span className="h-px flex-1 bg-border" />
        or
        <span className="h-px flex-1 bg-border" />
      </div>
      <a
        href={href}
        className="inline-flex h-9 w-full items-center justify-center gap-2 rounded-md border border-input text-sm font-medium shadow-xs transition-colors hover:bg-accent"
      >
        <GoogleMark />
        Continue with Google
      </a>
    </div>
  );
}
