import type { ReactNode } from 'react';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { BlogPostsTab } from './blog-posts-tab';
import { PageContentTab, type PageSection } from './page-content-tab';

export const CONTENT_TABS = ['posts', 'content', 'n8n'] as const;
export type ContentTab = (typeof CONTENT_TABS)[number];

/**
 * The admin 'Content Management Panel' (/admin, /admin/dashboard; spec part 2 "Content management"):
 * Blog Posts, Page Content and N8N Integration. The n8n tab is another feature's, composed by the
 * route (`n8n`), since features never import each other.
 */
export function ContentPanel({
  tab,
  onTabChange,
  section,
  onSectionChange,
  n8n,
}: {
  tab: ContentTab;
  onTabChange: (tab: ContentTab) => void;
  section: PageSection;
  onSectionChange: (section: PageSection) => void;
  n8n: ReactNode;
}) {
  return (
    <Tabs value={tab} onValueChange={(value) => onTabChange(CONTENT_TABS.find((t) => t === value) ?? 'posts')} className="min-w-0">
      <TabsList aria-label="Content management">
        <TabsTrigger value="posts">Blog Posts</TabsTrigger>
        <TabsTrigger value="content">Page Content</TabsTrigger>
        <TabsTrigger value="n8n">N8N Integration</TabsTrigger>
      </TabsList>
      <TabsContent value="posts" className="min-w-0">
        <BlogPostsTab />
      </TabsContent>
      <TabsContent value="content" className="min-w-0">
        <PageContentTab section={section} onSectionChange={onSectionChange} />
      </TabsContent>
      <TabsContent value="n8n" className="min-w-0">
        {n8n}
      </TabsContent>
    </Tabs>
  );
}
