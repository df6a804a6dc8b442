/** The six default services and prices of spec part 2 §3 and §9. */
export interface Service {
  id: string;
  title: string;
  description: string;
  features: readonly string[];
  price: string;
  popular?: boolean;
}

export const SERVICES: readonly Service[] = [
  {
    id: 'ai-chat-automation',
    title: 'AI Chat Automation',
    description: 'AI agents that answer customer messages on WhatsApp, Instagram and Messenger around the clock.',
    features: ['24/7 automatic replies', 'Human handoff when needed', 'Multi-channel inbox'],
    price: 'From $99/month',
  },
  {
    id: 'workflow-automation',
    title: 'Workflow Automation',
    description: 'Connect conversations to your tools with n8n workflows and Zapier zaps.',
    features: ['Triggers from conversations', 'Execution history', 'Live run messages'],
    price: 'From $149/month',
    popular: true,
  },
  {
    id: 'quick-setup',
    title: 'Quick Setup Package',
    description: 'We connect your channels, configure your first agent and go live with you.',
    features: ['Channel connection', 'Agent configuration', 'Go-live support'],
    price: '$499 one-time',
  },
  {
    id: 'custom-integration',
    title: 'Custom Integration',
    description: 'Bring your own platform: we connect custom channels and back-office systems.',
    features: ['Custom channel adapters', 'Webhooks both ways', 'Dedicated engineer'],
    price: 'Contact for quote',
  },
  {
    id: 'team-training',
    title: 'Team Training',
    description: 'Hands-on sessions so your team gets the most out of AI-assisted support.',
    features: ['Handoff best practices', 'Reading insights', 'Writing agent instructions'],
    price: 'From $299/session',
  },
  {
    id: 'analytics-reporting',
    title: 'Analytics & Reporting',
    description: 'Response times, escalations and trends across your channels, in reports you can share.',
    features: ['Weekly reports', 'Channel breakdowns', 'Export'],
    price: 'From $79/month',
  },
];
