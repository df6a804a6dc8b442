import { useSearchParams } from 'react-router';
import { CONTENT_TABS, ContentPanel, type ContentTab } from '@/features/content/components/content-panel';
import { PAGE_SECTIONS, type PageSection } from '@/features/content/components/page-content-tab';
import { N8nSettings } from '@/features/n8n/components/n8n-settings';

/**
 * /admin and /admin/dashboard (admins): the Content Management Panel. Tab and section live in the
 * URL (`?tab=content&section=hero`). The N8N Integration tab is the n8n feature's: its guide, with
 * the webhook test and the n8n connection the guide refers to ("above").
 */
export default function AdminContentRoute() {
  const [params, setParams] = useSearchParams();
  const tab: ContentTab = CONTENT_TABS.find((t) => t === params.get('tab')) ?? 'posts';
  const section: PageSection = PAGE_SECTIONS.find((s) => s === params.get('section')) ?? 'hero';
  const change = (next: { tab?: ContentTab; section?: PageSection }) => {
    const search = new URLSearchParams(params);
    const nextTab = next.tab ?? tab;
    if (nextTab === 'posts') search.delete('tab');
    else search.set('tab', nextTab);
    const nextSection = next.section ?? section;
    if (nextTab !== 'content' || nextSection === 'hero') search.delete('section');
    else search.set('section', nextSection);
    setParams(search, { replace: true });
  };
  return (
    <ContentPanel
      tab={tab}
      onTabChange={(next) => change({ tab: next })}
      section={section}
      onSectionChange={(next) => change({ section: next })}
      n8n={<N8nSettings />}
    />
  );
}
