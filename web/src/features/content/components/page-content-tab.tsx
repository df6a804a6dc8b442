import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { AboutEditor } from './about-editor';
import { BlogPageEditor } from './blog-page-editor';
import { ContactEditor } from './contact-editor';
import { FeaturesEditor } from './features-editor';
import { HeroEditor } from './hero-editor';
import { MessagesPanel } from './messages-panel';
import { NewsletterSubscribers } from './newsletter-subscribers';
import { ServicesEditor } from './services-editor';

export const PAGE_SECTIONS = ['hero', 'services', 'blog', 'about', 'contact', 'features', 'messages', 'newsletter'] as const;
export type PageSection = (typeof PAGE_SECTIONS)[number];

export const PAGE_SECTION_LABELS: Record<PageSection, string> = {
  hero: 'Hero',
  services: 'Services',
  blog: 'Blog page',
  about: 'About',
  contact: 'Contact',
  features: 'Features',
  messages: 'Messages',
  newsletter: 'Newsletter',
};

/** The Page Content tab: one editor per section of the public site, the contact messages and the newsletter list. */
export function PageContentTab({ section, onSectionChange }: { section: PageSection; onSectionChange: (section: PageSection) => void }) {
  return (
    <Tabs value={section} onValueChange={(value) => onSectionChange(PAGE_SECTIONS.find((s) => s === value) ?? 'hero')} className="min-w-0">
      <TabsList aria-label="Page content sections">
        {PAGE_SECTIONS.map((s) => (
          <TabsTrigger key={s} value={s}>
            {PAGE_SECTION_LABELS[s]}
          </TabsTrigger>
        ))}
      </TabsList>
      <TabsContent value="hero" className="min-w-0">
        <HeroEditor />
      </TabsContent>
      <TabsContent value="services" className="min-w-0">
        <ServicesEditor />
      </TabsContent>
      <TabsContent value="blog" className="min-w-0">
        <BlogPageEditor />
      </TabsContent>
      <TabsContent value="about" className="min-w-0">
        <AboutEditor />
      </TabsContent>
      <TabsContent value="contact" className="min-w-0">
        <ContactEditor />
      </TabsContent>
      <TabsContent value="features" className="min-w-0">
        <FeaturesEditor />
      </TabsContent>
      <TabsContent value="messages" className="min-w-0">
        <MessagesPanel />
      </TabsContent>
      <TabsContent value="newsletter" className="min-w-0">
        <NewsletterSubscribers />
      </TabsContent>
    </Tabs>
  );
}
