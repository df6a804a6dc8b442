/**
 * The services app.ts builds, as the CLI's control commands and tests reach them
 * (ParleyApp.services). Its own file so that those callers need not import app.ts.
 */
import type { AutomationsService } from './modules/automations';
import type { EventBus } from './events/event-bus';
import type { AgentPolicy } from './modules/agents/agents.policy';
import type { SatisfactionRequests } from './modules/agents/satisfaction-requests';
import type { AgentsService } from './modules/agents/agents.service';
import type { AuthService } from './modules/auth/auth.service';
import type { ChannelDeliveriesRepository } from './modules/channels/channel-deliveries.repository';
import type { ChannelsRepository } from './modules/channels/channels.repository';
import type { ChannelsService } from './modules/channels/channels.service';
import type { ChatsService } from './modules/chats/chats.service';
import type { ClientsService } from './modules/clients/clients.service';
import type { ClientStateService } from './modules/clients';
import type { ClientDashboardService } from './modules/client-dashboard';
import type { ConversationsRepository } from './modules/conversations/conversations.repository';
import type { ConversationsService } from './modules/conversations/conversations.service';
import type { MessagingService } from './modules/messaging/messaging.service';
import type { EmailService } from './modules/email/email.service';
import type { NotificationsService } from './modules/notifications/notifications.service';
import type { ProfileService } from './modules/profile/profile.service';
import type { RealtimeHub } from './modules/realtime/realtime.hub';
import type { VisitorTokens } from './modules/widget/visitor-token';
import type { WidgetService } from './modules/widget/widget.service';
import type { WebhooksService } from './modules/webhooks/webhooks.service';
import type { UsersService } from './modules/users/users.service';
import type { WorkflowsService } from './modules/workflows/workflows.service';
import type { N8nService } from './modules/n8n/n8n.service';
import type { EventsService } from './modules/events';
import type { HooksService } from './modules/hooks';
import type { BlogPostsService, ContentService } from './modules/content';
import type { ContactService, NewsletterService } from './modules/contact';
import type { InsightsService } from './modules/insights';
import type { ReportEmailsService } from './modules/report-emails';
import type { ReadinessService } from './modules/readiness';
import type { SecuritySettingsService } from './modules/security';
import type { ErrorAlertsService } from './modules/notifications';
import type { DashboardService } from './modules/dashboard';
import type { InvitationsService, OnboardingService } from './modules/onboarding';
import type { BillingService } from './modules/billing';

export interface ParleyServices {
  auth: AuthService;
  users: UsersService;
  emails: EmailService;
  profile: ProfileService;
  notifications: NotificationsService;
  messaging: MessagingService;
  /** Customer satisfaction requests after a resolution (docs/satisfaction.md). */
  satisfactionRequests: SatisfactionRequests;
  conversationsRepository: ConversationsRepository;
  channelsRepository: ChannelsRepository;
  events: EventBus;
  realtime: RealtimeHub;
  visitorTokens: VisitorTokens;
  webhooks: WebhooksService;
  channelDeliveries: ChannelDeliveriesRepository;
  widget: WidgetService;
  clients: ClientsService;
  /** A client's switches: automation paused/resumed, deactivated/reactivated, lead qualification (docs/client-dashboard.md). */
  clientState: ClientStateService;
  /** The client dashboard's read model (issue 17 §2). */
  clientDashboard: ClientDashboardService;
  channelsService: ChannelsService;
  conversationsService: ConversationsService;
  chats: ChatsService;
  agents: AgentsService;
  agentPolicy: AgentPolicy;
  automations: AutomationsService;
  workflows: WorkflowsService;
  n8n: N8nService;
  /** The public events' outbox (issue 14 §1). */
  publicEvents: EventsService;
  /** Outbound webhooks; `hooks.sink()` is the events module's PublicEventSink. */
  hooks: HooksService;
  /** Page content, hero stats and the public reads (issue 15); `publicSite()` for server rendering. */
  content: ContentService;
  /** Blog posts (issue 15). */
  blogPosts: BlogPostsService;
  /** The contact form and its messages (issue 15). */
  contact: ContactService;
  /** The newsletter's double opt-in (issue 15). */
  newsletter: NewsletterService;
  /** Service levels per conversation and per client and day (issue 16 §1). */
  insights: InsightsService;
  /** The daily and weekly reports by e-mail (issue 16 §5). */
  reportEmails: ReportEmailsService;
  /** Production readiness: the 24 checks of this installation, their runs and the drop alerts (issue 16 §4). */
  readiness: ReadinessService;
  /** Admin Settings → Security: the two-factor requirement and the session lifetime (docs/admin-settings.md). */
  securitySettings: SecuritySettingsService;
  /** Admin Settings → Notifications' error alerts: jobs and webhook deliveries that keep failing. */
  errorAlerts: ErrorAlertsService;
  /** The dashboard's stat cards with their week-over-week change. */
  dashboard: DashboardService;
  /** Onboarding requests from /client-signup and their review (issue 17 §1). */
  onboarding: OnboardingService;
  /** Invitations to a client business (issue 17 §3). */
  invitations: InvitationsService;
  /** Subscriptions, monthly invoices, cash payments and overdue reminders (issue 17 §2). */
  billing: BillingService;
}
