import { useSearchParams } from 'react-router';
import { INSIGHTS_TABS, InsightsScreen, type InsightsTab } from '@/features/insights/components/insights-screen';
import { readSelection, writeSelection } from '@/lib/period';
import { useCurrentUser } from '@/lib/session';

/**
 * /insights (any signed-in user), /analytics (the manager's menu) and /admin/insights (admins): one
 * screen, spec part 1 §2.16. The period, the client and the tab live in the URL, so a reload keeps them.
 */
export default function InsightsRoute() {
  const { role } = useCurrentUser();
  const [params, setParams] = useSearchParams();
  const selection = readSelection(params, role !== 'client');
  const tab: InsightsTab = INSIGHTS_TABS.find((t) => t === params.get('tab')) ?? 'performance';
  return (
    <InsightsScreen
      role={role}
      selection={selection}
      onSelectionChange={(next) => setParams(writeSelection(params, next), { replace: true })}
      tab={tab}
      onTabChange={(next) => {
        const search = new URLSearchParams(params);
        if (next === 'performance') search.delete('tab');
        else search.set('tab', next);
        setParams(search, { replace: true });
      }}
    />
  );
}
