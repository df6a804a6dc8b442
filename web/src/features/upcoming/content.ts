/**
 * Screens whose features arrive with later issues. They show an honest empty state that names
 * what will appear there — never sample data.
 */
import {
  Activity,
  Bot,
  FileStack,
  Gauge,
  LayoutDashboard,
  LineChart,
  Newspaper,
  Sparkles,
  Webhook,
  Workflow,
  Zap,
  type LucideIcon,
} from 'lucide-react';
import type { PageName } from '@common/routes';

export interface UpcomingContent {
  icon: LucideIcon;
  heading: string;
  body: string;
  /** What the screen will show. */
  items: readonly string[];
}

export const UPCOMING: Partial<Record<PageName, UpcomingContent>> = {
  clientDashboard: {
    icon: LayoutDashboard,
    heading: 'Your automation dashboard is not set up yet',
    body: 'Once your business and its AI automation are connected, this page shows how it is doing.',
    items: [
      'Your business, template and subscription status, with a pause/resume switch',
      'Messages, response rate, response time, leads and conversion',
      'Recent conversations, automation settings and billing',
    ],
  },
  insights: {
    icon: LineChart,
    heading: 'No insights yet',
    body: 'Insights are computed from real conversations and fill in once messages flow.',
    items: ['Conversation and response-time metrics', 'Top agents and client distribution', 'Six-month trends and reports'],
  },
  webhooks: {
    icon: Webhook,
    heading: 'No webhooks yet',
    body: 'Test endpoints and review the webhooks configured for your account here.',
    items: ['A test form with an editable JSON payload', 'Configured webhooks with status and call counts', 'A setup guide'],
  },
  summary: {
    icon: Sparkles,
    heading: 'No AI summary yet',
    body: 'The AI summary reads your conversations; it appears once there are some to read.',
    items: ['Common topics, trends and escalations', 'Performance by time of day and by channel', 'Satisfaction and confidence'],
  },
  automations: {
    icon: Workflow,
    heading: 'No automations found. Create your first automation to get started.',
    body: 'Automations run n8n or Zapier workflows for your conversations.',
    items: ['Each automation with its status and a Run button', 'Execution history', 'Live messages from running workflows'],
  },
  analytics: {
    icon: Activity,
    heading: 'No analytics yet',
    body: 'Analytics fill in from real conversations once messages flow.',
    items: ['Message volume and response times', 'Agent performance', 'Escalations over time'],
  },
  adminDashboard: {
    icon: Newspaper,
    heading: 'Content management is not available yet',
    body: 'The content management panel arrives with the content release.',
    items: ['Blog posts: create, edit and delete', 'Page content for hero, services, blog, about and contact', 'Contact messages and the n8n setup guide'],
  },
  productionStatus: {
    icon: Gauge,
    heading: 'No readiness checks yet',
    body: 'The production readiness checklist arrives with the operations release.',
    items: ['An overall readiness score', 'Complete, attention and critical items', 'A checklist grouped by category'],
  },
  adminInsights: {
    icon: LineChart,
    heading: 'No insights yet',
    body: 'Platform-wide insights are computed from real conversations and fill in once messages flow.',
    items: ['Metrics across every client and channel', 'Agent performance', 'Trends and reports'],
  },
  adminTemplates: {
    icon: FileStack,
    heading: 'No templates found',
    body: 'Automation templates that clients can be assigned appear here.',
    items: ['n8n and Zapier templates with their status', 'Client assignments', 'Cloning and editing'],
  },
  adminN8n: {
    icon: Workflow,
    heading: 'No workflows found',
    body: 'n8n workflows and the clients they serve appear here.',
    items: ['Each workflow with its webhook URL and status', 'Assigned clients', 'Create, edit and delete'],
  },
  adminZapier: {
    icon: Zap,
    heading: 'No zaps found',
    body: 'Zapier zaps and the clients they serve appear here.',
    items: ['Each zap with its apps, webhook URL and status', 'Assigned clients', 'Create, edit and delete'],
  },
  adminWebhooks: {
    icon: Webhook,
    heading: 'No webhooks yet',
    body: 'Channel webhooks (WhatsApp, Instagram, Messenger) and outbound automation webhooks appear here once channels are connected.',
    items: ['Each webhook with its status and last delivery', 'Delivery history', 'Testing an endpoint'],
  },
  adminAutomations: {
    icon: Bot,
    heading: 'No automations found. Create your first automation to get started.',
    body: 'Deploy AI agents and workflows for your clients here.',
    items: ['Automations per client with status', 'Execution history', 'Live messages'],
  },
};
