import { Eye, LinkIcon } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { SHARE_GONE_MESSAGE, type SharedSummaryView } from '@common/api/summary-shares';
import { Logo } from '@/components/logo';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { isApiError } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { browserTimeZone } from '@/lib/time-zone';
import { useSharedSummary } from '../api/get-shared-summary';
import { SummaryFigures, type SummaryTab } from './summary-screen';

/** Draws the link's six months of trends (the route passes the insights page's own: features never import each other). */
export type RenderSharedTrends = (trends: SharedSummaryView['trends'], ratingsCollected: boolean) => ReactNode;

/** The banner over a shared summary: what it is and until when it opens. */
export function sharedBannerText(expiresAt: string): string {
  return `Shared read-only view · expires ${formatDateTime(expiresAt)}`;
}

/** A shared summary as it opens: the banner, whose figures, then the same figures and tabs as the signed-in page, without its buttons. */
export function SharedSummaryContent({ view, renderTrends }: { view: SharedSummaryView; renderTrends: RenderSharedTrends }) {
  const [tab, setTab] = useState<SummaryTab>('insights');
  return (
    <div className="grid min-w-0 gap-6">
      <p className="flex items-center gap-2 rounded-lg border border-primary/30 bg-primary/5 px-4 py-3 text-sm" data-testid="shared-banner">
        <Eye aria-hidden className="size-4 shrink-0 text-primary" />
        {sharedBannerText(view.share.expiresAt)}
      </p>
      <div className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">AI Summary</h1>
        <p className="text-sm text-muted-foreground">{view.share.clientName ?? 'All clients'}</p>
      </div>
      {/* Nothing here links to the signed-in app's pages: a visitor with the link cannot open them. */}
      <SummaryFigures view={view.summary} tab={tab} onTabChange={setTab} updating={false} knowledgeBaseHref={null} trends={renderTrends(view.trends, view.summary.ratingsCollected)} />
    </div>
  );
}

/** What a link that is unknown, expired or revoked shows (the server does not say which). */
export function SharedSummaryGone() {
  return (
    <div className="mx-auto grid w-full max-w-md justify-items-center gap-3 rounded-xl border bg-card p-8 text-center shadow-sm">
      <span className="flex size-12 items-center justify-center rounded-full bg-muted">
        <LinkIcon aria-hidden className="size-6 text-muted-foreground" />
      </span>
      <h1 className="text-xl font-semibold">{SHARE_GONE_MESSAGE}</h1>
      <p className="text-sm text-muted-foreground">Ask the person who shared it for a new link.</p>
    </div>
  );
}

/**
 * /shared/summary/:token — a share link's read-only AI Summary (issue 16 §3): no sign-in, no
 * Share, Export or Refresh; the figures of the link's frozen period in the visitor's time zone.
 */
export function SharedSummaryScreen({ token, renderTrends }: { token: string; renderTrends: RenderSharedTrends }) {
  const [timeZone] = useState(browserTimeZone);
  const shared = useSharedSummary(token, timeZone);

  let body;
  if (shared.data) body = <SharedSummaryContent view={shared.data} renderTrends={renderTrends} />;
  else if (shared.isError && isApiError(shared.error) && shared.error.status === 404) body = <SharedSummaryGone />;
  else if (shared.isError) {
    body = (
      <div className="grid justify-items-center gap-3 rounded-xl border border-dashed p-8 text-center">
        <p className="text-sm">
          <span className="font-medium">Error loading the shared summary:</span> <span className="text-muted-foreground">{shared.error.message}</span>
        </p>
        <Button variant="outline" onClick={() => void shared.refetch()}>
          Try Again
        </Button>
      </div>
    );
  } else {
    body = (
      <div className="flex justify-center py-16">
        <Spinner label="Loading the shared summary" />
      </div>
    );
  }

  return (
    <div className="min-h-dvh bg-muted/30">
      <header className="border-b bg-background">
        <div className="mx-auto flex max-w-7xl items-center px-4 py-3 sm:px-6">
          <Logo />
        </div>
      </header>
      <main className="mx-auto grid max-w-7xl min-w-0 gap-6 px-4 py-6 sm:px-6">{body}</main>
    </div>
  );
}
