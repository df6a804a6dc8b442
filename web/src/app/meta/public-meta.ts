/** Titles and descriptions of the public pages (loaded with the public layout). */
import type { PageMeta, PagesOf } from '../page-layouts';

export const PUBLIC_PAGE_META: Record<PagesOf<'public'>, PageMeta> = {
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
  features: {
    title: 'Features',
    description: 'AI agents, a unified inbox, human handoff, workflow automation and insights: what Parley does.',
  },
  clientSignup: {
    title: 'Get Started',
    description: 'Choose an AI automation for your business and get started with Parley.',
  },
};
