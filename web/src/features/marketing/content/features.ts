export interface FeatureCard {
  title: string;
  description: string;
  benefits: readonly string[];
  category: string;
}

/** The features page's eight cards (spec part 1 §2.5). */
export const FEATURE_CARDS: readonly FeatureCard[] = [
  {
    title: 'AI Agents',
    description: 'Agents answer customer questions in your tone, with a confidence score on every reply.',
    benefits: ['Replies in seconds', 'Confidence threshold you control', 'Configurable response delay'],
    category: 'AI',
  },
  {
    title: 'Human Handoff',
    description: 'When an agent is unsure, the conversation goes to your team with its full context.',
    benefits: ['Escalation rules', 'No repeated questions', 'Handoff in one click'],
    category: 'AI',
  },
  {
    title: 'Unified Inbox',
    description: 'WhatsApp, Instagram, Messenger and custom channels in one list.',
    benefits: ['One thread per customer', 'Search and filters', 'Status per conversation'],
    category: 'Messaging',
  },
  {
    title: 'Priority Detection',
    description: 'Urgent messages are flagged from their wording and rise to the top.',
    benefits: ['High, medium and low priority', 'Short AI summaries', 'Fewer missed emergencies'],
    category: 'Messaging',
  },
  {
    title: 'Workflow Automation',
    description: 'Start n8n workflows and Zapier zaps from conversations and follow every run.',
    benefits: ['Execution history', 'Live run messages', 'Per-client automations'],
    category: 'Automation',
  },
  {
    title: 'Templates',
    description: 'Ready-made automations for common businesses, assigned to clients in a click.',
    benefits: ['Clone and adapt', 'Client assignment', 'Versioned changes'],
    category: 'Automation',
  },
  {
    title: 'Insights',
    description: 'Response times, escalations and trends across clients and channels.',
    benefits: ['Six-month trends', 'Agent performance', 'Exportable reports'],
    category: 'Analytics',
  },
  {
    title: 'Security',
    description: 'Roles, two-factor sign-in and sessions you can see and revoke.',
    benefits: ['Role-based access', 'Two-factor authentication', 'Session management'],
    category: 'Platform',
  },
];
