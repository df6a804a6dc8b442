/**
 * The landing page's fixed features block (the target of the hero's secondary button). The hero
 * itself is stored content (common/api/content.ts, edited in the Content Management Panel).
 */
export interface FeatureHighlight {
  title: string;
  description: string;
}

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
