/**
 * The landing page's default hero (spec part 1 §2.4). Its shape is the "hero content" of spec part 2
 * §3, so the content editor of a later issue can override it field by field.
 */
export type HeroFeatureIcon = 'channels' | 'agents' | 'automation';

export interface HeroContent {
  badge: string;
  heading: string;
  subheading: string;
  description: string;
  ctaPrimary: string;
  ctaSecondary: string;
  socialProof: string;
  stats: readonly { number: string; label: string }[];
  features: readonly { icon: HeroFeatureIcon; label: string }[];
}

export const DEFAULT_HERO: HeroContent = {
  badge: 'AI customer messaging, 24/7',
  heading: 'Answer every customer message,',
  subheading: 'on every channel, around the clock',
  description:
    'Parley connects WhatsApp, Instagram, Facebook Messenger and your own channels to AI agents that reply in seconds, hand the conversation to your team when it matters, and keep every thread in one place.',
  ctaPrimary: 'Schedule a Demo',
  ctaSecondary: 'Explore Features',
  socialProof: 'Trusted by 500+ businesses · 14-day free trial · No credit card required',
  stats: [
    { number: '99.9%', label: 'Uptime' },
    { number: '10M+', label: 'Messages Processed' },
    { number: '500+', label: 'Happy Clients' },
    { number: '24/7', label: 'Support' },
  ],
  features: [
    { icon: 'channels', label: 'WhatsApp, Instagram & Messenger' },
    { icon: 'agents', label: 'AI agents with human handoff' },
    { icon: 'automation', label: 'n8n & Zapier automations' },
  ],
};

export interface FeatureHighlight {
  title: string;
  description: string;
}

/** The landing page's features block, the target of the secondary hero button. */
export const FEATURE_HIGHLIGHTS: readonly FeatureHighlight[] = [
  {
    title: 'One inbox for every channel',
    description: 'WhatsApp, Instagram, Facebook Messenger and custom platforms land in one place, threaded by customer.',
  },
  {
    title: 'AI agents that know their limits',
    description: 'Agents answer with a confidence score and hand the conversation to a person when they are unsure.',
  },
  {
    title: 'Priorities at a glance',
    description: 'Urgent messages rise to the top with a short AI summary, so your team reads what matters first.',
  },
  {
    title: 'Workflow automation',
    description: 'Trigger n8n workflows and Zapier zaps from conversations and watch every run as it happens.',
  },
  {
    title: 'Insights you can act on',
    description: 'Response times, escalations and trends across clients and channels, updated as conversations flow.',
  },
  {
    title: 'Secure by default',
    description: 'Role-based access, two-factor sign-in, session control and a record of who changed which role.',
  },
];
