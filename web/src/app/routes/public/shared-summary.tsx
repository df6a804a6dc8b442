import { useParams } from 'react-router';
import { Head } from '@/components/seo/head';
import { TrendsTab as InsightsTrends } from '@/features/insights/components/trends-tab';
import { SharedSummaryScreen } from '@/features/summary/components/shared-summary-screen';
import { PLAIN_PAGE_META } from '../../meta/plain-meta';
import { AppProviders } from '../../providers/app-providers';

/**
 * /shared/summary/:token, a share link of the AI Summary (no sign-in). Its address is a secret:
 * search engines are asked not to index it (here and by the server's X-Robots-Tag). The Trends tab
 * is the insights page's own, composed here (features never import each other).
 */
export default function SharedSummaryRoute() {
  const { token = '' } = useParams();
  const meta = PLAIN_PAGE_META.sharedSummary;
  // A plain page has no layout providing queries (AppLayout and AuthLayout do): this one brings its own.
  return (
    <AppProviders>
      <Head title={meta.title} description={meta.description} />
      <meta name="robots" content="noindex, nofollow" />
      <SharedSummaryScreen token={token} renderTrends={(trends, ratingsCollected) => <InsightsTrends trends={trends} ratingsCollected={ratingsCollected} />} />
    </AppProviders>
  );
}
