/**
 * The content of a new installation (issue 15): what each section holds until an admin saves it,
 * and what Reset to Defaults brings back. Spec part 1 §2.4 (hero stats), part 2 §3 (entities) and
 * §9 (the six services and prices, default business hours). The six sample posts are seeded as
 * drafts and never published on their own.
 */
import type { AboutContent, BlogPageContent, ContactContent, FeaturesContent, HeroContent, ServicesContent } from '../api/content';
import { SERVICES } from './services';

export const DEFAULT_HERO: HeroContent = {
  badge: 'AI customer messaging, 24/7',
  heading: 'Answer every customer message,',
  subheading: 'on every channel, around the clock',
  description:
    'Parley connects WhatsApp, Instagram, Facebook Messenger and your own channels to AI agents that reply in seconds, hand the conversation to your team when it matters, and keep every thread in one place.',
  ctaPrimary: 'Schedule a Demo',
  ctaSecondary: 'Explore Features',
  socialProof: 'Trusted by 500+ businesses · 14-day free trial · No credit card required',
  features: [
    { icon: 'channels', label: 'WhatsApp, Instagram & Messenger' },
    { icon: 'agents', label: 'AI agents with human handoff' },
    { icon: 'automation', label: 'n8n & Zapier automations' },
  ],
};

/** Spec part 1 §2.4: 99.9% Uptime, 10M+ Messages Processed, 500+ Happy Clients, 24/7 Support. */
export const DEFAULT_HERO_STATS: readonly { number: string; label: string }[] = [
  { number: '99.9%', label: 'Uptime' },
  { number: '10M+', label: 'Messages Processed' },
  { number: '500+', label: 'Happy Clients' },
  { number: '24/7', label: 'Support' },
];

const SERVICE_ICONS = ['message', 'workflow', 'rocket', 'plug', 'users', 'chart'] as const;

export const DEFAULT_SERVICES: ServicesContent = {
  services: SERVICES.map((service, i) => ({
    id: service.id,
    icon: SERVICE_ICONS[i] ?? 'message',
    title: service.title,
    description: service.description,
    features: [...service.features],
    price: service.price,
    popular: service.popular === true,
  })),
};

export const DEFAULT_BLOG_PAGE: BlogPageContent = {
  title: 'Blog',
  subtitle: 'Guides, case studies and news about AI customer messaging and automation.',
  categories: ['All', 'Automation', 'Case Study', 'Tutorial', 'Security', 'Business', 'Development'],
  newsletterTitle: 'Stay in the loop',
  newsletterDescription: 'New articles on AI customer messaging and automation, about once a month. Unsubscribe at any time.',
};

export const DEFAULT_ABOUT: AboutContent = {
  mission: 'We build AI agents that answer customer messages the way your best people would.',
  description:
    'Businesses lose customers to slow replies. Parley connects the channels your customers already use to AI agents that reply in seconds, escalate what they cannot handle, and keep your team in control.',
  values: [
    { title: 'Customers first', description: 'Every message deserves a fast, accurate answer, whatever the hour.' },
    { title: 'Humans in the loop', description: 'AI handles the routine; people step in when judgement or empathy is needed.' },
    { title: 'Trust by design', description: 'Your customers’ conversations are yours: secured, access-controlled and never sold.' },
  ],
  stats: DEFAULT_HERO_STATS.map((stat) => ({ ...stat })),
};

/** Spec part 2 §9: Mon-Fri 9:00 AM-6:00 PM, Sat 10:00 AM-4:00 PM, Sun Closed. */
export const DEFAULT_CONTACT: ContactContent = {
  email: 'hello@parley.example',
  phone: '+1 (555) 010-2030',
  address: '100 Market Street, Suite 300, San Francisco, CA 94105',
  hours: {
    monday: '9:00 AM - 6:00 PM',
    tuesday: '9:00 AM - 6:00 PM',
    wednesday: '9:00 AM - 6:00 PM',
    thursday: '9:00 AM - 6:00 PM',
    friday: '9:00 AM - 6:00 PM',
    saturday: '10:00 AM - 4:00 PM',
    sunday: 'Closed',
  },
};

export const DEFAULT_FEATURES: FeaturesContent = { integrationOverrides: {} };

export const DEFAULT_CONTENT = {
  hero: DEFAULT_HERO,
  services: DEFAULT_SERVICES,
  blog: DEFAULT_BLOG_PAGE,
  about: DEFAULT_ABOUT,
  contact: DEFAULT_CONTACT,
  features: DEFAULT_FEATURES,
} as const;

/** The six sample posts of the spec, seeded as drafts (an admin publishes what they want). */
export const SAMPLE_POSTS: readonly {
  title: string;
  excerpt: string;
  author: string;
  date: string;
  readTime: string;
  category: 'Automation' | 'Case Study' | 'Tutorial' | 'Security' | 'Business' | 'Development';
  image: string;
  body: string;
}[] = [
  {
    title: 'Five conversations your AI agent should hand to a person',
    excerpt: 'Refunds, complaints and anything urgent: how to set escalation rules that keep customers happy.',
    author: 'Parley Team',
    date: 'March 15, 2024',
    readTime: '5 min read',
    category: 'Automation',
    image: 'https://images.unsplash.com/photo-1556761175-b413da4baf72?w=1200',
    body: 'An AI agent earns trust by knowing its limits.\n\n## 1. Refund requests\n\nMoney questions deserve a person.\n\n## 2. Complaints\n\nAn upset customer wants to be heard by someone.\n\n## 3. Anything urgent\n\nParley flags urgent wording and hands the conversation over at once.\n',
  },
  {
    title: 'How a bike shop answers 80% of its messages automatically',
    excerpt: 'Opening hours, repairs and stock questions, answered in seconds on WhatsApp and Instagram.',
    author: 'Parley Team',
    date: 'March 8, 2024',
    readTime: '4 min read',
    category: 'Case Study',
    image: 'https://images.unsplash.com/photo-1485965120184-e220f721d03e?w=1200',
    body: 'A small shop gets the same twenty questions every week. Its FAQ became its agent’s knowledge base.\n',
  },
  {
    title: 'Connect your first n8n workflow in ten minutes',
    excerpt: 'From a webhook trigger to a message back in the conversation, step by step.',
    author: 'Parley Team',
    date: 'February 28, 2024',
    readTime: '8 min read',
    category: 'Tutorial',
    image: 'https://images.unsplash.com/photo-1551288049-bebda4e38f71?w=1200',
    body: '1. Create a workflow with a **Webhook** trigger.\n2. Copy its production URL into a Parley automation.\n3. Run it and watch the execution history.\n',
  },
  {
    title: 'Signed webhooks, explained',
    excerpt: 'Why every request Parley sends carries a signature, and how to check it in a few lines.',
    author: 'Parley Team',
    date: 'February 20, 2024',
    readTime: '6 min read',
    category: 'Security',
    image: 'https://images.unsplash.com/photo-1555949963-ff9fe0c870eb?w=1200',
    body: 'A signature over the timestamp and the raw body proves the request came from Parley and was not replayed.\n',
  },
  {
    title: 'What 24/7 replies do to your conversion rate',
    excerpt: 'Customers who get an answer within a minute buy more often. Here is what the numbers say.',
    author: 'Parley Team',
    date: 'February 12, 2024',
    readTime: '5 min read',
    category: 'Business',
    image: 'https://images.unsplash.com/photo-1460925895917-afdab827c52f?w=1200',
    body: 'Speed of reply is the strongest predictor of a sale in messaging channels.\n',
  },
  {
    title: 'Building a custom channel with the Parley API',
    excerpt: 'Bring your own platform: send messages in, receive replies out, all signed.',
    author: 'Parley Team',
    date: 'February 5, 2024',
    readTime: '7 min read',
    category: 'Development',
    image: 'https://images.unsplash.com/photo-1517694712202-14dd9538aa97?w=1200',
    body: 'The API channel takes a signed POST per customer message and calls your endpoint with each reply.\n',
  },
];
