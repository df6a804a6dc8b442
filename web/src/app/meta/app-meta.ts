/**
 * Titles, header subtitles and descriptions of the signed-in pages. Screens not built yet have no
 * subtitle: their page says only that the feature is not available yet (features/upcoming).
 */
import type { PageMeta, PagesOf } from '../page-layouts';

export const APP_PAGE_META: Record<PagesOf<'app'>, PageMeta> = {
  dashboard: {
    title: 'Dashboard',
    subtitle: 'Your home in Parley',
    description: 'Your Parley home: where to go next and what needs attention.',
  },
  clientDashboard: {
    title: 'Client Dashboard',
    subtitle: 'Your automation and its results',
    description: 'Your business, your automation and its results.',
  },
  clients: {
    title: 'Client Management',
    subtitle: 'Legacy client list',
    description: 'The businesses Parley answers for.',
  },
  conversations: {
    title: 'Conversations',
    subtitle: 'Customer conversations across your channels',
    description: 'Customer conversations across WhatsApp, Instagram, Messenger and custom channels.',
  },
  messages: {
    title: 'Messages',
    subtitle: 'Incoming customer messages',
    description: 'Incoming customer messages with priority and AI summaries.',
  },
  insights: {
    title: 'Analytics & Insights',
    subtitle: 'Conversations, response times and AI results',
    description: 'Conversation volume, response times and AI performance.',
  },
  settings: {
    title: 'Admin Settings',
    subtitle: 'Settings and configuration',
    description: 'Customer management, integrations, AI agents, notifications and security.',
  },
  profile: {
    title: 'My Profile Settings',
    subtitle: 'Your account, security and notifications',
    description: 'Your profile, password, sessions, two-factor authentication and notification settings.',
  },
  webhooks: {
    title: 'Webhooks',
    description: 'Your webhook subscriptions and their deliveries, a webhook tester and the integration guide.',
  },
  summary: {
    title: 'AI Summary',
    description: 'AI insights, performance and trends from your conversations.',
  },
  automations: {
    title: 'Automations',
    description: 'Your automations with their execution history and live messages.',
  },
  notifications: {
    title: 'Notifications',
    subtitle: 'Updates about your account and conversations',
    description: 'Your notifications: escalated conversations and other updates for you.',
  },
  agents: {
    title: 'AI Agents',
    subtitle: 'Agents answering your customers',
    description: 'The AI agents answering your customers and how they are configured.',
  },
  analytics: {
    title: 'Analytics',
    subtitle: 'Conversations, response times and agent performance',
    description: 'Message volume, response times and agent performance.',
  },
  adminDashboard: {
    title: 'Content Management Panel',
    subtitle: 'Blog posts, page content and the n8n guide',
    description: 'Manage blog posts, public page content, contact messages and the n8n integration guide.',
  },
  productionStatus: {
    title: 'Production Readiness',
    subtitle: 'This installation, checked now',
    description: 'The production readiness checklist and score.',
  },
  adminConversations: {
    title: 'Chat Management',
    subtitle: 'Conversations between admins and clients',
    description: 'Chats between your team and client businesses.',
  },
  adminInsights: {
    title: 'Admin Insights',
    subtitle: 'Every client and channel',
    description: 'Analytics across every client and channel.',
  },
  adminTemplates: {
    title: 'Templates',
    subtitle: 'Automation templates and their clients',
    description: 'Automation templates and their client assignments.',
  },
  adminN8n: {
    title: 'n8n Workflows',
    subtitle: 'Workflows, webhook URLs and assigned clients',
    description: 'n8n workflows, their webhook URLs and assigned clients.',
  },
  adminZapier: {
    title: 'Zapier Zaps',
    subtitle: 'Zaps, webhook URLs and assigned clients',
    description: 'Zapier zaps, their webhook URLs and assigned clients.',
  },
  adminWebhooks: {
    title: 'Webhooks',
    description: "Every client's webhook subscriptions, their delivery logs, a webhook tester and the integration guide.",
  },
  adminAutomations: {
    title: 'Automations',
    description: 'Create, deploy and monitor automations for every client.',
  },
  adminClients: {
    title: 'All Clients',
    subtitle: 'Every business on Parley',
    description: 'Every client business on Parley with its channels and status.',
  },
  adminUsers: {
    title: 'User Management',
    subtitle: 'Accounts, roles and access',
    description: 'Create users and manage their roles.',
  },
  adminOutbox: {
    title: 'Email Outbox',
    subtitle: 'E-mails Parley has sent or stored',
    description: 'E-mails sent or stored by Parley, with their content.',
  },
  adminBilling: {
    title: 'Billing',
    subtitle: 'Invoices, cash payments and plans',
    description: "Every client's invoices and plans: record cash payments, mark invoices paid, generate the month's invoices.",
  },
};
