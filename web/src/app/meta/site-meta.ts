/** Titles and descriptions of the server-rendered public site (a post's come from the post). */
import type { PageMeta, PagesOf } from '../page-layouts';

export const SITE_PAGE_META: Record<PagesOf<'site'>, PageMeta> = {
  home: {
    title: 'Parley — AI customer messaging, around the clock',
    description:
      'Parley connects WhatsApp, Instagram, Facebook Messenger and your own channels to AI agents that answer customers 24/7 and hand off to your team when it matters.',
  },
  services: {
    title: 'Services',
    description: 'AI chat automation, workflow automation, setup, integrations, training and reporting from Parley.',
  },
  about: {
    title: 'About Us',
    description: 'Why we built Parley: every customer message answered, by AI agents that know when to call a human.',
  },
  contact: {
    title: 'Contact Us',
    description: 'Get in touch with the Parley team: demos, questions and support.',
  },
  blog: {
    title: 'Blog',
    description: 'Articles on AI customer messaging, automation and support operations from the Parley team.',
  },
  blogPost: {
    title: 'Blog post',
    description: 'An article from the Parley blog on AI customer messaging, automation and support operations.',
  },
  features: {
    title: 'Features',
    description: 'AI agents, a unified inbox, human handoff, workflow automation and insights: what Parley does.',
  },
};
