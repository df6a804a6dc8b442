import { useSearchParams } from 'react-router';
import { TrendsTab as InsightsTrends } from '@/features/insights/components/trends-tab';
import { SUMMARY_TABS, SummaryScreen, type SummaryTab } from '@/features/summary/components/summary-screen';
import { SUMMARY_DEFAULT_PERIOD } from '@/features/summary/lib/summary-figures';
import { readSelection, writeSelection } from '@/lib/period';
import { useCurrentUser } from '@/lib/session';

/**
 * /summary, the AI Summary (any signed-in user). The period, the client and the tab live in the URL,
 * so a reload keeps them. Its Trends tab draws the insights page's six months (composed here:
 * features never import each other).
 */
export default function SummaryRoute() {
  const { role } = useCurrentUser();
  const [params, setParams] = useSearchParams();
  const selection = readSelection(params, role !== 'client', SUMMARY_DEFAULT_PERIOD);
  const tab: SummaryTab = SUMMARY_TABS.find((t) => t === params.get('tab')) ?? 'insights';
  return (
    <SummaryScreen
      role={role}
      selection={selection}
      onSelectionChange={(next) => setParams(writeSelection(params, next, SUMMARY_DEFAULT_PERIOD), { replace: true })}
      tab={tab}
      onTabChange={(next) => {
        const search = new URLSearchParams(params);
        if (next === 'insights') search.delete('tab');
        else search.set('tab', next);
        setParams(search, { replace: true });
      }}
      renderTrends={(trends, ratingsCollected) => <InsightsTrends trends={trends} ratingsCollected={ratingsCollected} />}
    />
  );
}
