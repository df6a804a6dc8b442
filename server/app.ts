/**
 * Composition root: builds every repository and service with only what it uses, registers the
 * routes and the job handlers. Nothing else constructs services.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyWebsocket from '@fastify/websocket';
import type { SiteRenderer } from '../common/site';
import type { ChannelKind } from './db/schema';
import { EventBus } from './events/event-bus';
import { loadSecretBox, type SecretBox } from './lib/secret-box';
import type { ChannelAdapter } from './modules/channels/adapters/channel-adapter';
import { webchatAdapter } from './modules/channels/adapters/webchat.adapter';
import { createInstagramAdapter } from './modules/channels/adapters/instagram.adapter';
import { createMessengerAdapter } from './modules/channels/adapters/messenger.adapter';
import { createWhatsAppAdapter } from './modules/channels/adapters/whatsapp.adapter';
import { createApiAdapter } from './modules/channels/adapters/api.adapter';
import { apiChannelRoutes } from './modules/webhooks/api-channel.routes';
import { ApiKeysRepository } from './modules/api-keys/api-keys.repository';
import { apiKeysRoutes } from './modules/api-keys/api-keys.routes';
import { ApiKeysService } from './modules/api-keys/api-keys.service';
import { ApiChannelService } from './modules/webhooks/api-channel.service';
import { ChannelDeliveriesRepository } from './modules/channels/channel-deliveries.repository';
import { ChannelDirectory } from './modules/channels/channel-directory';
import { ChannelsRepository } from './modules/channels/channels.repository';
import { OutboundService } from './modules/channels/outbound.service';
import { sendMessageJob } from './modules/messaging/send-message.job';
import { ConversationsRepository } from './modules/conversations/conversations.repository';
import { InboxStateService } from './modules/messaging/inbox-state.service';
import { MessagingService } from './modules/messaging/messaging.service';
import { ReopenNotifier } from './modules/conversations/reopen-notifier';
import { ContactProfiles } from './modules/channels/contact-profiles.service';
import { fetchContactProfileJob } from './modules/messaging/fetch-contact-profile.job';
import { AgentPolicy } from './modules/agents/agents.policy';
import { SatisfactionRequests } from './modules/agents/satisfaction-requests';
import { agentsRoutes } from './modules/agents/agents.routes';
import { AgentsService } from './modules/agents/agents.service';
import { createEmbeddedTrainer } from './modules/agents/embedded-trainer';
import { annotateInbound } from './modules/agents/intelligence';
import { engineRegistry } from './modules/agents/engine-registry';
import { EmbeddedEngine } from './modules/agents/engines/embedded/embedded-engine';
import { configureWordVectors } from './modules/agents/engines/embedded/word-vectors';
import { EmbeddedTextFeatures } from './modules/agents';
import { trainAgentJob } from './modules/agents/train-agent.job';
import { RealtimeHub } from './modules/realtime/realtime.hub';
import { createRealtimeLoaders } from './modules/realtime/realtime.loaders';
import { realtimeRoutes } from './modules/realtime/realtime.routes';
import { VisitorTokens } from './modules/widget/visitor-token';
import { demoWidgetRoutes, widgetRoutes } from './modules/widget/widget.routes';
import { WidgetService } from './modules/widget/widget.service';
import { AppSettingsService } from './modules/system/app-settings.service';
import { DeliveryPressure } from './modules/webhooks/delivery-pressure';
import { processInboundJob } from './modules/webhooks/process-inbound.job';
import { WebhooksRepository } from './modules/webhooks/webhooks.repository';
import { createWebhookFastPath, type WebhookFastPath } from './modules/webhooks/webhooks.http';
import { webhooksRoutes } from './modules/webhooks/webhooks.routes';
import { type ProcessInboundHint, WebhooksService } from './modules/webhooks/webhooks.service';
import { clientsRoutes } from './modules/clients/clients.routes';
import { ClientsService } from './modules/clients/clients.service';
import { ClientsRepository, ClientStateService } from './modules/clients';
import { ClientDashboardService, clientDashboardRoutes } from './modules/client-dashboard';
import { channelsRoutes } from './modules/channels/channels.routes';
import { ChannelsService } from './modules/channels/channels.service';
import { conversationsRoutes } from './modules/conversations/conversations.routes';
import { ConversationsService } from './modules/conversations/conversations.service';
import { ChatsRepository } from './modules/chats/chats.repository';
import { chatsRoutes } from './modules/chats/chats.routes';
import { checkExecutionSilenceJob, runAutomationJob } from './modules/automations/automation-jobs';
import { automationCallbackRoutes, automationsRoutes } from './modules/automations/automations.routes';
import { AutomationsService, type ExecutionReconciler } from './modules/automations/automations.service';
import { ChatsService } from './modules/chats/chats.service';
import { PresenceTracker } from './modules/chats/presence';
import type { AutomationCreator, N8nWorkflowSource, N8nWorkflowSwitch } from './modules/workflows/workflow-ports';
import { workflowsRoutes } from './modules/workflows/workflows.routes';
import { type DeliveryHint, deliverWebhookJob, HooksService, hooksRoutes } from './modules/hooks';
import { WorkflowsService } from './modules/workflows/workflows.service';
import { ContactRepository, ContactService, contactRoutes, NewsletterService, newsletterSubscribeJob, PublicFormLimits } from './modules/contact';
import { InvitationsService, OnboardingRepository, OnboardingService, onboardingRoutes, type OnboardingPorts } from './modules/onboarding';
import { BlogPostsService, ContentRepository, ContentService, contentRoutes, liveIntegrations } from './modules/content';
import { EventsService } from './modules/events';
import { ReadinessService, readinessDailyJob, readinessRoutes } from './modules/readiness';
import { InsightsService, insightsRoutes, ReportsService, reportsRoutes } from './modules/insights';
import { ReportEmailsService } from './modules/report-emails';
import { BillingService, billingRoutes } from './modules/billing';
import type { PublicEventSink } from './events/public-events';
import { publicEventSchemas } from './http/public-event-schemas';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { pino, type Logger } from 'pino';
import packageJson from '../package.json' with { type: 'json' };
import type { Config } from './config';
import type { Database } from './db/database';
import { AppError } from './lib/errors';
import { accessPlugin, type RegisteredRoute } from './http/access';
import { csrfPlugin } from './http/csrf';
import { registerErrorHandler } from './http/error-handler';
import { registerJsonBodyParser } from './http/json-body';
import { registerOpenApi } from './http/openapi';
import { registerRequestGuard } from './http/request-guard';
import { registerSecurityHeaders } from './http/security-headers';
import { type RequestHandler, serverOptions } from './http/server-options';
import { registerPublicSite, rendererFromFile, type Assets } from './http/public-site';
import { registerWebApp } from './http/web-app';
import { hintOf } from './jobs/define-job';
import { JobQueue } from './jobs/queue';
import { Scheduler } from './jobs/schedule';
import { type Clock, systemClock } from './lib/clock';
import { loggerOptions } from './lib/logger';
import { createGuardedHttp, TrustedOrigins } from './lib/guarded-http';
import { N8nConnectionRepository } from './modules/n8n/n8n-connection.repository';
import { n8nRoutes } from './modules/n8n/n8n.routes';
import { N8nService } from './modules/n8n/n8n.service';
import { AuthService } from './modules/auth/auth.service';
import { SessionsRepository } from './modules/auth/sessions.repository';
import { authRoutes } from './modules/auth/auth.routes';
import { createBetterAuth, passwordResetUrl } from './modules/auth/better-auth';
import { betterAuthCallbackRoutes } from './modules/auth/better-auth.routes';
import { LockoutRepository } from './modules/auth/lockout.repository';
import { observedPasswordHashing, type PasswordObserver } from './lib/password-hash';
import { accountMailJob } from './modules/auth/auth.job';
import { forwardCookies, requestMeta } from './modules/auth/request-meta';
import { deliverEmailJob } from './modules/email/email.job';
import { EmailService } from './modules/email/email.service';
import { createOutboxTransport, createSmtpTransport, type EmailTransport } from './modules/email/email.transport';
import { passwordResetEmail } from './modules/email/email.templates';
import { outboxRoutes } from './modules/email/outbox.routes';
import { notificationsRoutes } from './modules/notifications/notifications.routes';
import { NotificationsService } from './modules/notifications/notifications.service';
import { profileRoutes } from './modules/profile/profile.routes';
import { ProfileService } from './modules/profile/profile.service';
import { SecurityEventsRepository } from './modules/security/security-events.repository';
import { SecurityEventsService } from './modules/security/security-events.service';
import { SecurityAdminService, securityRoutes, SecuritySettingsService } from './modules/security';
import { DashboardService, dashboardRoutes } from './modules/dashboard';
import { ErrorAlertsService } from './modules/notifications';
import { getOrCreateSecret } from './modules/system/app-secrets';
import { controlRoutes } from './cli/control.routes';
import { BackupsService } from './modules/system/backups.service';
import { HealthService } from './modules/system/health.service';
import { checkSecretsKey } from './modules/system/secrets-key-check';
import { systemRoutes } from './modules/system/system.routes';
import { UsersRepository } from './modules/users/users.repository';
import { usersRoutes } from './modules/users/users.routes';
import { UsersService } from './modules/users/users.service';
import { UserProfileRepository } from './modules/users/user-profile.repository';
import type { ParleyServices } from './services';

export const VERSION: string = packageJson.version;

export interface BuildAppOptions {
  config: Config;
  database: Database;
  clock?: Clock;
  logger?: Logger;
  /** The control token the CLI must present (from DATA_DIR/parley.lock). */
  controlToken?: () => string | undefined;
  /** Start the job workers (default true). */
  startJobs?: boolean;
  /** Override the e-mail transport (default: SMTP when SMTP_URL is set, else the outbox). */
  emailTransport?: EmailTransport;
  /** The key for secrets at rest (default: SECRETS_KEY, else DATA_DIR/secrets.key). */
  secretBox?: SecretBox;
  /** Told of every password hashed and checked by sign-in (tests and the bench count them). */
  passwordObserver?: PasswordObserver;
  /** n8n's word on silent automation executions (default: none — they time out). */
  executionReconciler?: ExecutionReconciler;
  /**
   * What the workflows module needs from the automations and n8n modules. Absent: assigning a
   * template and toggling a workflow linked to n8n answer 503 (not configured).
   */
  workflowPorts?: { automations?: AutomationCreator; n8nSwitch?: N8nWorkflowSwitch; n8nSource?: N8nWorkflowSource };
  /** More consumers of the public events (tests), after the app's own. */
  eventSinks?: readonly PublicEventSink[];
  /**
   * The public site's renderer and assets (tests load the renderer's source: they run without a
   * build). Default: dist/ssr/render.js beside WEB_DIST_DIR, and the web build's manifest.
   */
  site?: { loadRenderer: () => Promise<SiteRenderer>; assets?: Assets };
  /** How long service-level jobs wait to be taken together (default 1 s; tests that read the figures at once: 0). */
  insightsBatchDelayMs?: number;
}

export interface ParleyApp {
  server: FastifyInstance;
  /**
   * What the HTTP server runs for every request: Meta's webhook deliveries first
   * (webhooks.http.ts), everything else Fastify. Tests inject through it.
   */
  handle: (request: IncomingMessage, response: ServerResponse) => void;
  queue: JobQueue;
  /** Recurring jobs (registered by app.ts; started with the queue). */
  scheduler: Scheduler;
  logger: Logger;
  routes: RegisteredRoute[];
  services: ParleyServices;
  close(): Promise<void>;
}

export async function buildApp(options: BuildAppOptions): Promise<ParleyApp> {
  const { config, database } = options;
  const { db } = database;
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? pino(loggerOptions(config.logLevel));
  const secureCookies = config.publicUrl.startsWith('https://');
  configureWordVectors({ enabled: config.wordVectors });

  const secret = config.authSecret ?? (await getOrCreateSecret(db, 'auth_secret'));
  // A burst of webhook deliveries keeps the CPU for accepting them; jobs wait until it has passed.
  const deliveryPressure = new DeliveryPressure();
  const queue = new JobQueue(database, { logger, concurrency: config.jobConcurrency, pause: () => deliveryPressure.high() });
  const events = new EventBus(database, logger, { jobChannel: queue.channel });
  // Recurring jobs (daily and weekly), once per period across instances (server/jobs/schedule.ts).
  const scheduler = new Scheduler({ db, queue, logger });
  const secretBox = options.secretBox ?? loadSecretBox({ secretsKey: config.secretsKey, dataDir: config.dataDir });
  // Refuses to start with a key that cannot open this database's secrets (SecretsKeyMismatchError).
  await checkSecretsKey(db, secretBox);

  // Repositories
  const usersRepository = new UsersRepository(db);
  const lockout = new LockoutRepository(db);
  const securityEvents = new SecurityEventsService(new SecurityEventsRepository(db));
  // Admin Settings → Security (docs/admin-settings.md): the two-factor requirement and the session
  // lifetime, read on every signed-in request (each instance keeps them a few seconds).
  const securitySettings: SecuritySettingsService = new SecuritySettingsService({
    db,
    store: new AppSettingsService(db),
    securityEvents,
    clock,
    sessions: { shortenSessions: (latest, trx): Promise<number> => authService.shortenSessions(latest, trx) },
  });
  const channelsRepository = new ChannelsRepository(db, secretBox);
  const conversationsRepository = new ConversationsRepository(db);
  const channelDirectory = new ChannelDirectory(channelsRepository);
  const webhooksRepository = new WebhooksRepository(db);

  // Services
  const transport =
    options.emailTransport ?? (config.smtp.url ? createSmtpTransport(config.smtp.url, config.smtp.from) : createOutboxTransport(logger));
  const emails = new EmailService({ db, queue, transport, logger });
  const passwordHashing = observedPasswordHashing(options.passwordObserver);
  const users = new UsersService({ db, users: usersRepository, profiles: new UserProfileRepository(db), securityEvents, logger });
  const auth = createBetterAuth({
    config,
    db,
    secret,
    logger,
    passwordHashing,
    users,
    sessionLifetimeSeconds: async () => (await securitySettings.get()).sessionLifetimeHours * 3600,
    sendPasswordReset: async (user, token) => {
      await emails.send(user.email, passwordResetEmail(user.name, passwordResetUrl(config.publicUrl, token)));
    },
  });
  const authService = new AuthService({ config, auth, users, lockout, sessions: new SessionsRepository(db), securityEvents, emails, queue, passwordHashing, clock, logger, securitySettings });

  const profile = new ProfileService({ auth, users, sessions: authService, securityEvents });
  const apiKeys = new ApiKeysService({ db, repository: new ApiKeysRepository(db), users, securityEvents, clock });
  const notifications = new NotificationsService({ db, events });

  const messaging = new MessagingService({ db, events, queue, clock, annotate: annotateInbound, engine: database.engine });
  const channelDeliveries = new ChannelDeliveriesRepository(db);
  // Every request to a URL a user entered (API channel callbacks, LLM base URLs) goes through it.
  // The n8n connection's origin is admitted on a private address (N8nService keeps it current).
  const trustedOrigins = new TrustedOrigins();
  const outboundHttp = createGuardedHttp({ allowlist: config.outboundAllowlist, trustedOrigins, timeoutMs: Math.max(30_000, config.llmTimeoutMs) });
  const adapters = new Map<ChannelKind, ChannelAdapter>([
    ['webchat', webchatAdapter],
    ['api', createApiAdapter({ deliveries: channelDeliveries, clock, logger, http: outboundHttp, userAgent: `Parley/${VERSION}` })],
  ]);
  const metaAdapters = [createWhatsAppAdapter(config.graphApi), createMessengerAdapter(config.graphApi), createInstagramAdapter(config.graphApi)];
  for (const adapter of metaAdapters) adapters.set(adapter.kind, adapter);
  const outbound = new OutboundService({ db, channels: channelsRepository, messaging, adapters, notifications, users, logger });
  const visitorTokens = new VisitorTokens(secret);
  const clients = new ClientsService({ db });
  const inboxState = new InboxStateService({ db, events, clock });
  const conversationsService = new ConversationsService({ db, conversations: conversationsRepository, messaging, inboxState, users, clock });
  const apiChannels = new ApiChannelService({ channels: channelDirectory, deliveries: webhooksRepository, messaging, clock });
  const webhooks = new WebhooksService({
    db,
    queue,
    channels: channelDirectory,
    repository: webhooksRepository,
    messaging,
    adapters: metaAdapters,
    logger,
    pressure: deliveryPressure,
  });
  const channelsService = new ChannelsService({
    db,
    channels: channelsRepository,
    adapters,
    publicUrl: config.publicUrl,
    checkOutboundUrl: (url) => outboundHttp.checkUrl(url),
    // A disabled channel's deliveries stop being accepted here at once (other instances: within seconds).
    onChange: () => webhooks.secrets.invalidate(),
  });
  // A client's switches (docs/client-dashboard.md): its automation paused or resumed (logged, the
  // administrators told), deactivated or reactivated (its users' sessions revoked, its channels
  // stop accepting — here at once, other instances within seconds).
  const clientState = new ClientStateService({
    db,
    clients,
    repository: new ClientsRepository(db),
    clock,
    publicUrl: config.publicUrl,
    ports: {
      admins: (trx) => users.findRecipients({ staffRoles: ['admin'] }, trx),
      notify: (userId, input, trx) => notifications.notify(userId, input, trx),
      email: (to, email, trx) => emails.send(to, email, { db: trx }),
      securityEvent: (event, trx) => securityEvents.record(event, trx),
      revokeSessions: (clientId, trx) => authService.revokeClientSessions(clientId, trx),
      statusChanged: () => webhooks.secrets.invalidate(),
    },
  });
  const widget = new WidgetService({
    db,
    channels: channelDirectory,
    channelsService,
    conversations: conversationsService,
    clients,
    settings: new AppSettingsService(db),
    messaging,
    visitorTokens,
    clock,
  });
  const chats = new ChatsService({ db, chats: new ChatsRepository({ db, clock }), events, clock });
  const presence = new PresenceTracker({ users, clock, logger });
  // n8n: the connected instance's origin is admitted by the guarded client (and only that one).
  const n8n = new N8nService({
    connections: new N8nConnectionRepository(db),
    secretBox,
    http: outboundHttp,
    trustedOrigins,
    clock,
    publicUrl: config.publicUrl,
    userAgent: `Parley/${VERSION}`,
    logger,
  });
  await n8n.refreshTrustedOrigin();

  // Automations: Run POSTs to a user-given workflow URL through the guarded client (10 s per request).
  const automations = new AutomationsService({
    db,
    queue,
    events,
    clock,
    logger,
    secretBox,
    http: outboundHttp,
    publicUrl: config.publicUrl,
    callbackTokenKey: secret,
    silenceTimeoutMs: config.automationSilenceTimeoutMs,
    reconciler: options.executionReconciler ?? { finalStatus: (input) => n8n.executionOutcome(input) },
    beforeTrigger: () => n8n.refreshTrustedOrigin(),
    userAgent: `Parley/${VERSION}`,
  });
  // The public events' outbox (issue 14 §1) and its consumers, each called in the transaction that
  // stores an event: outbound webhook subscriptions and event-triggered automations append theirs.
  const eventSinks: PublicEventSink[] = [];
  eventSinks.push(...(options.eventSinks ?? []));
  const publicEvents = new EventsService({ db, events, queue, clock, logger, publicUrl: config.publicUrl, sinks: eventSinks });
  // Outbound webhooks: deliveries POST to user-given URLs through the guarded client (10 s each).
  const hooks = new HooksService({
    db,
    queue,
    clock,
    logger,
    secretBox,
    http: outboundHttp,
    autoDisableFailures: config.webhookAutoDisableFailures,
    publicUrl: config.publicUrl,
    alerts: {
      recipients: (clientId, trx) => users.findRecipients(clientId === null ? {} : { clientId }, trx),
      notify: (userId, input, trx) => notifications.notify(userId, input, trx),
      email: (to, email, trx) => emails.send(to, email, { db: trx }),
    },
    // The events module's recent envelopes and documented examples (Zapier's sample step).
    recentEvents: { recent: (type, scope, limit) => publicEvents.recent(type, scope, limit), example: (type) => publicEvents.exampleEnvelope(type) },
  });
  // The hooks sink inserts its deliveries' jobs claimed here and runs them with their data in
  // memory once the event's transaction committed — through the SinkOutcome that accept returns.
  // EventsService.record does not call that outcome yet (the batching change does): until then
  // the jobs are inserted queued, as claimed slots would never be given back.
  eventSinks.push(hooks.sink(), automations);
  // The contact form and the newsletter (issue 15): the per-IP limits' keys and the unsubscribe
  // tokens are HMACs under the installation's secret; e-mails go through the outbox in the caller's
  // transaction; administrators are told in the app and by e-mail.
  const contactRepository = new ContactRepository(db);
  const publicFormLimits = new PublicFormLimits({ repository: contactRepository, clock, hashKey: secret });
  const contact = new ContactService({
    db,
    repository: contactRepository,
    limits: publicFormLimits,
    events,
    clock,
    logger,
    publicUrl: config.publicUrl,
    ports: {
      admins: (trx) => users.findRecipients({ staffRoles: ['admin'] }, trx),
      notify: (userId, input, trx) => notifications.notify(userId, input, trx),
      email: (to, email, trx) => emails.send(to, email, { db: trx }),
    },
  });
  const newsletter = new NewsletterService({
    db,
    repository: contactRepository,
    limits: publicFormLimits,
    queue,
    clock,
    logger,
    publicUrl: config.publicUrl,
    tokenKey: secret,
    email: (to, email, trx) => emails.send(to, email, { db: trx }),
  });
  // Content management (issue 15): page sections with revisions, hero stats, blog posts. The
  // Features page's integration statuses come from the channel adapters this app runs.
  const contentRepository = new ContentRepository(db);
  const blogPosts = new BlogPostsService({ db, repository: contentRepository });
  const content = new ContentService({ db, repository: contentRepository, posts: blogPosts, liveIntegrations: liveIntegrations(adapters.keys()) });
  const realtime = new RealtimeHub(
    { ...createRealtimeLoaders(conversationsService), ...chats.realtimeLoaders(), ...automations.realtimeLoaders(), ...contact.realtimeLoaders() },
    logger,
  );

  // Training runs in a worker thread, started with the first training (embedded-trainer.ts).
  const trainer = createEmbeddedTrainer({ wordVectors: config.wordVectors });
  const agents = new AgentsService({ db, queue, clock, secretBox, trainer, checkOutboundUrl: (url) => outboundHttp.checkUrl(url) });
  const embeddedEngine = new EmbeddedEngine();
  const satisfactionRequests = new SatisfactionRequests({ db, events, queue, clock, logger, messaging, agents });
  const agentPolicy = new AgentPolicy({
    db,
    events,
    queue,
    clock,
    logger,
    agents,
    messaging,
    users,
    clients,
    notifications,
    emails,
    ...engineRegistry({ embedded: embeddedEngine, logger, fetch: outboundHttp.fetch, timeoutMs: config.llmTimeoutMs }),
    publicUrl: config.publicUrl,
    typing: (input) => outbound.sendTyping(input),
  });


  const workflows = new WorkflowsService({
    db,
    checkOutboundUrl: (url) => outboundHttp.checkUrl(url),
    automations: options.workflowPorts?.automations ?? {
      // A template assigned to a client gives it a working automation: active, the template's URL and triggers.
      createFromTemplate: (input, trx) =>
        automations.createFromTemplate(
          { clientId: input.clientId, name: input.name, description: input.description, workflowUrl: input.workflowUrl, config: { triggers: input.triggers, templateId: input.templateId }, createdBy: input.createdBy, status: 'active' },
          trx,
        ),
    },
    n8nSwitch: options.workflowPorts?.n8nSwitch ?? {
      setActive: async (id, active) => {
        await n8n.setActive(id, active);
      },
    },
    // Import from n8n and the list's real active states read the connected instance.
    n8nSource: options.workflowPorts?.n8nSource ?? {
      getWorkflow: async (id) => {
        const w = await n8n.getWorkflow(id);
        return { id: w.id, name: w.name, active: w.active, webhookUrl: w.webhookUrl };
      },
      listWorkflows: async () => (await n8n.listWorkflows()).map((w) => ({ id: w.id, name: w.name, active: w.active, webhookUrl: w.webhookUrl })),
    },
  });

  // Billing (issue 17 §2, docs/billing.md): subscriptions, the monthly invoices, cash payments, overdue reminders.
  const billing = new BillingService({
    db,
    clock,
    logger,
    publicUrl: config.publicUrl,
    ports: {
      clientUsers: async (clientId, trx) => (await users.findRecipients({ clientId, staffRoles: ['admin'] }, trx)).filter((user) => user.role === 'client'),
      admins: (trx) => users.findRecipients({ staffRoles: ['admin'] }, trx),
      notify: (userId, input, trx) => notifications.notify(userId, input, trx),
      email: (to, email, trx) => emails.send(to, email, { db: trx }),
      securityEvent: (event, trx) => securityEvents.record(event, trx),
    },
  });

  // Onboarding (issue 17 §1, docs/onboarding.md): requests from /client-signup, their approval (the
  // client, its account, template, agent and subscription in one transaction) and invitations.
  const onboardingPorts: OnboardingPorts = {
    admins: (trx) => users.findRecipients({ staffRoles: ['admin'] }, trx),
    notify: (userId, input, trx) => notifications.notify(userId, input, trx),
    email: (to, email, trx) => emails.send(to, email, { db: trx }),
    limitSubmission: (ip) => publicFormLimits.hit('onboarding', ip),
    findAccountByEmail: (email) => users.findUserByEmail(email),
    lockAccount: (filter, trx) => users.lockAccount(filter, trx),
    linkAccount: (userId, clientId, trx, linkOptions) => users.linkClientAccount(userId, clientId, trx, linkOptions),
    createAccount: (input, trx) => users.createClientAccount(input, trx),
    createClient: (trx, input) => clients.createClientIn(trx, { ...input, status: 'active' }),
    applyTemplate: (trx, input) => workflows.applyTemplate(trx, input),
    setUpAgent: (trx, clientId, settings) => agents.updateAgentIn(trx, clientId, settings),
    startSubscription: (trx, input) => billing.startSubscription(trx, input),
    securityEvent: (event, trx) => securityEvents.record(event, trx),
  };
  const onboardingRepository = new OnboardingRepository(db);
  const invitations = new InvitationsService({ db, repository: onboardingRepository, clock, publicUrl: config.publicUrl, ports: onboardingPorts });
  const onboarding = new OnboardingService({
    db,
    repository: onboardingRepository,
    invitations,
    clock,
    logger,
    publicUrl: config.publicUrl,
    ports: onboardingPorts,
  });

  // Service levels (issue 16 §1): per conversation and per client and day, kept current by the domain events;
  // the AI Summary groups unanswered questions with the AI agent's text features (§3).
  const insights = new InsightsService({ db, events, queue, logger, clock, batchDelayMs: options.insightsBatchDelayMs, textFeatures: new EmbeddedTextFeatures() });
  // Reports by e-mail (issue 16 §5): daily (administrators) and weekly, each once per recipient and period.
  const reportEmails = new ReportEmailsService({
    db,
    logger,
    publicUrl: config.publicUrl,
    ports: {
      recipients: (kind) => (kind === 'daily' ? users.findReportRecipients('dailyReports', ['admin']) : users.findReportRecipients('weeklyReports')),
      insights: (scope, query) => insights.overview(scope, query),
      email: (to, email, trx) => emails.send(to, email, { db: trx }),
    },
  });
  // Its report files (PDF, the summary's CSV) and the AI Summary's share links (issue 16 §2–3).
  const reports = new ReportsService({ db, insights, publicUrl: config.publicUrl, clock });
  // The client dashboard (issue 17 §2, docs/client-dashboard.md): its figures from the insights
  // module's service levels, its plan from billing (or onboarding), the agent's settings from agents.
  const clientDashboard = new ClientDashboardService({
    db,
    clock,
    ports: {
      serviceLevels: (clientId, period) => insights.dailyRollups({ clientId }, period),
      // The client's subscription (billing: its offer, start and whether it is past due); without
      // one, the template it chose and since when (its approved onboarding request).
      plan: async (clientId) => {
        const subscription = await billing.subscriptionOf(clientId);
        if (subscription) return { offerId: subscription.offerId, offerName: subscription.offerName, activeSince: subscription.activeSince, pastDue: subscription.pastDue };
        const offer = await onboarding.offerOf(clientId);
        return offer && { offerId: offer.offerId, offerName: offer.offerName, activeSince: offer.approvedAt.toISOString(), pastDue: false };
      },
      agentSettings: async (clientId) => {
        const agent = await agents.getConfig(clientId);
        return { enabled: agent.enabled, businessHours: agent.businessHours, outsideHours: agent.outsideHours, awayText: agent.awayText };
      },
      updateAgentSettings: async (clientId, changes) => {
        await agents.updateAgent(clientId, changes);
      },
      goLive: async (clientId) => {
        const channels = (await channelsService.findChannels({ clientId })).filter((channel) => channel.status === 'active');
        const training = await agents.training(clientId);
        return {
          channels: channels.length,
          channelKinds: [...new Set(channels.map((channel) => channel.kind))],
          knowledgeLive: training.liveVersion !== null,
          liveEntries: training.liveVersion === null ? 0 : (training.metrics?.entries ?? 0),
          training: training.status === 'queued' || training.status === 'training',
        };
      },
      setLeadQualification: (user, clientId, enabled) => clientState.setLeadQualification(user, clientId, enabled),
    },
  });

  // Error alerts (Admin Settings → Notifications, docs/admin-settings.md): jobs and webhook
  // deliveries that keep failing, told to the administrators who keep the switch on.
  const errorAlerts = new ErrorAlertsService({
    db,
    queue,
    clock,
    logger,
    notifications,
    publicUrl: config.publicUrl,
    ports: {
      jobFailures: async (since) => (await health.jobOutcomes(since)).failedByName,
      failingWebhooks: (minConsecutive) => hooks.findFailingSubscriptions(minConsecutive),
      admins: (trx) => users.findRecipients({ staffRoles: ['admin'] }, trx),
      email: (to, email, trx) => emails.send(to, email, { db: trx }),
    },
  });
  // The dashboard's stat cards with their week-over-week change; the demo client is the widget module's.
  const dashboard = new DashboardService({ db, clock, ports: { demoClientId: () => widget.findDemoClientId() } });
  // Admin Settings → Security: the audit log and every user's sessions (the auth module's).
  const securityAdmin = new SecurityAdminService({
    db,
    settings: securitySettings,
    events: securityEvents,
    clock,
    sessions: { find: (filter) => authService.findUserSessions(filter), revoke: (id, trx) => authService.revokeUserSession(id, trx) },
  });

  // Backups of the embedded database, recorded (parley backup) so their age can be checked.
  const backups = new BackupsService({ database, secretBox, version: VERSION, settings: new AppSettingsService(db) });
  // Production readiness (issue 16 §4): every check reads its facts from the service that owns
  // them. `health` and `server` are made further down; the checks only run once the app serves.
  const readiness = new ReadinessService({
    db,
    logger,
    clock,
    hashKey: secret,
    sources: {
      config: {
        env: config.env,
        publicUrl: config.publicUrl,
        secretsKeyFromEnv: config.secretsKey !== undefined,
        databasePoolSize: config.databasePoolSize,
        smtpUrl: config.smtp.url,
        smtpFrom: config.smtp.from,
        logLevel: config.logLevel,
        webDistDir: config.webDistDir,
        jobMaxAgeSeconds: config.health.jobMaxAgeSeconds,
      },
      engine: database.engine,
      admins: () => users.findAdmins(),
      health: () => health.report(),
      jobOutcomes: (since) => health.jobOutcomes(since),
      lastBackup: () => backups.lastBackup(),
      emailDeliveries: (since, lateAfterMs) => emails.deliveryCounts(since, lateAfterMs, clock.now()),
      findEmail: (id) => emails.findEmail(id),
      sendEmail: (to, email, trx) => emails.send(to, email, trx ? { db: trx } : {}),
      notify: (userId, input, trx) => notifications.notify(userId, input, trx),
      sections: () => content.findSections(),
      heroStats: () => content.findHeroStats(),
      posts: () => blogPosts.findPosts(),
      channels: () => channelsService.findChannels({}),
      demoWidgetId: () => widget.findDemoWidget(),
      firstResponse: async (from, to) => {
        const medians = await insights.medians({ clientId: null }, { from, to });
        return { conversations: medians.conversations, firstResponseSeconds: medians.firstResponseSeconds };
      },
      replyOutcomes: (since) => conversationsService.replyOutcomes(since),
      site: async (sitePath) => {
        const response = await server.inject({ method: 'GET', url: sitePath });
        return { status: response.statusCode, body: response.body };
      },
    },
  });

  const services: ParleyServices = {
    auth: authService,
    users,
    emails,
    profile,
    notifications,
    messaging,
    conversationsRepository,
    channelsRepository,
    events,
    realtime,
    visitorTokens,
    webhooks,
    channelDeliveries,
    widget,
    clients,
    clientState,
    clientDashboard,
    channelsService,
    conversationsService,
    chats,
    agents,
    agentPolicy,
    satisfactionRequests,
    automations,
    workflows,
    n8n,
    publicEvents,
    hooks,
    content,
    blogPosts,
    contact,
    newsletter,
    insights,
    reportEmails,
    readiness,
    securitySettings,
    errorAlerts,
    dashboard,
    onboarding,
    invitations,
    billing,
  };

  // Jobs
  queue.register(accountMailJob, (payload) => authService.runAccountMail(payload));
  queue.register(deliverEmailJob, ({ emailId }, ctx) => emails.deliver(emailId, ctx.attempt, ctx.maxAttempts));
  queue.register(sendMessageJob, ({ messageId }, ctx) => outbound.deliver(messageId, ctx));
  queue.register(processInboundJob, async ({ eventIds }, ctx) => {
    if ((await webhooks.process(eventIds, ctx.completion, hintOf<ProcessInboundHint>(ctx))).completedJob) ctx.completedInline();
  });
  queue.register(trainAgentJob, ({ clientId, version }) => agents.train(clientId, version));
  queue.register(runAutomationJob, ({ executionId }, ctx) => automations.trigger(executionId, ctx.signal));
  queue.register(checkExecutionSilenceJob, ({ executionId, attempt }) => automations.checkSilence(executionId, attempt));
  queue.register(deliverWebhookJob, async ({ deliveryId, token }, ctx) => {
    const hint = hintOf<DeliveryHint>(ctx);
    if ((await hooks.deliver(deliveryId, token, { signal: ctx.signal, completion: ctx.completion, hint, detach: () => ctx.detach() })).completedJob) ctx.completedInline();
  });
  agentPolicy.register();
  satisfactionRequests.register();
  publicEvents.register();
  insights.register({ upkeep: config.insightsUpkeep });
  reportEmails.register(scheduler);
  billing.register(scheduler);
  errorAlerts.register();
  scheduler.register(readinessDailyJob, async () => {
    await readiness.runDaily();
  });
  // The reopen rule's notification; Messenger/Instagram contacts' names from the Graph API.
  new ReopenNotifier({ db, events, queue, notifications, users }).register();
  const contactProfiles = new ContactProfiles({ channels: channelsRepository, messaging, adapters, logger });
  queue.register(fetchContactProfileJob, async ({ contactId }, ctx) => {
    await contactProfiles.fetch(contactId, ctx);
  });
  queue.register(newsletterSubscribeJob, ({ email }) => newsletter.runSubscribe(email));

  // HTTP
  // Typed as Fastify's logger so the instance type matches what plugins expect.
  const fastifyLogger: FastifyBaseLogger = logger;
  // Meta's deliveries are answered before Fastify (webhooks.http.ts); the server Fastify listens
  // with is made here so that they are, with the settings Fastify gives its own servers.
  let fastifyHandler: RequestHandler | undefined;
  // Set once the routes are ready: until then every request goes to Fastify.
  const early: { fastPath?: WebhookFastPath } = {};
  const handle = (request: IncomingMessage, response: ServerResponse): void => {
    if (early.fastPath?.(request, response)) return;
    fastifyHandler?.(request, response);
  };
  const server = Fastify(
    serverOptions({
      logger: fastifyLogger,
      trustProxy: config.trustProxy,
      handle,
      onFastifyHandler: (handler) => {
        fastifyHandler = handler;
      },
    }),
  ).withTypeProvider<ZodTypeProvider>();
  server.setValidatorCompiler(validatorCompiler);
  server.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(server);
  registerJsonBodyParser(server);
  registerRequestGuard(server);

  const routes: RegisteredRoute[] = [];
  await server.register(fastifyCookie);
  await registerSecurityHeaders(server, { hsts: secureCookies });
  await server.register(fastifyRateLimit, { global: false });
  // Per API key, in memory per instance (like the auth limits): config.apiKeyRateLimitPerMinute.
  const apiKeyLimit = server.createRateLimit({
    max: config.apiKeyRateLimitPerMinute,
    timeWindow: 60_000,
    keyGenerator: (request) => `api-key:${request.apiKey?.id ?? ''}`,
  });
  await server.register(fastifyWebsocket, { options: { maxPayload: 64 * 1024 } });
  await registerOpenApi(server, { version: VERSION, schemas: publicEventSchemas() });
  await server.register(accessPlugin, {
    registry: routes,
    controlToken: options.controlToken ?? (() => undefined),
    resolveSession: async (request, reply) => {
      if (!request.headers.cookie?.includes('session_token')) return null;
      const { result, cookies } = await authService.resolveSession(requestMeta(request).headers);
      forwardCookies(reply, cookies);
      return result;
    },
    resolveApiKey: (request, key) => apiKeys.authenticate(key, request.ip),
    limitApiKey: async (request) => {
      const limit = await apiKeyLimit(request);
      if (!limit.isAllowed && limit.isExceeded) {
        throw new AppError('RATE_LIMITED', `Rate limit exceeded: ${limit.max} requests per minute per API key. Retry in ${limit.ttlInSeconds} s.`, {
          retryAfterSeconds: limit.ttlInSeconds,
        });
      }
    },
  });
  await server.register(csrfPlugin, { publicUrl: config.publicUrl, secureCookies });

  const health = new HealthService({
    db,
    engine: database.engine,
    version: VERSION,
    dataDir: database.dataDir,
    thresholds: config.health,
    clock,
    logger,
  });
  await server.register(systemRoutes, { health, securityEvents });
  await server.register(authRoutes, { authService, rateLimitPerMinute: config.authRateLimitPerMinute });
  await server.register(betterAuthCallbackRoutes, { auth, publicUrl: config.publicUrl });
  await server.register(outboxRoutes, { emailService: emails });
  await server.register(usersRoutes, { usersService: users });
  await server.register(apiKeysRoutes, { apiKeysService: apiKeys });
  await server.register(profileRoutes, { profileService: profile, rateLimitPerMinute: config.authRateLimitPerMinute });
  await server.register(notificationsRoutes, { notificationsService: notifications });
  await server.register(securityRoutes, { securityAdminService: securityAdmin });
  await server.register(dashboardRoutes, { dashboardService: dashboard });
  await server.register(clientsRoutes, { clientsService: clients, clientStateService: clientState });
  await server.register(clientDashboardRoutes, { clientDashboardService: clientDashboard });
  await server.register(channelsRoutes, { channelsService });
  await server.register(conversationsRoutes, { conversationsService });
  await server.register(insightsRoutes, { insightsService: insights });
  await server.register(readinessRoutes, { readinessService: readiness });
  await server.register(reportsRoutes, { reportsService: reports, publicRateLimitPerMinute: config.authRateLimitPerMinute });
  await server.register(chatsRoutes, { chatsService: chats });
  await server.register(realtimeRoutes, {
    hub: realtime,
    publicUrl: config.publicUrl,
    onUserSeen: (userId) => presence.seen(userId),
    resolveVisitor: (widgetId, token) => widget.resolveRealtimeVisitor(widgetId, token),
  });
  await server.register(widgetRoutes, { widgetService: widget });
  await server.register(demoWidgetRoutes, { widgetService: widget });
  await server.register(apiChannelRoutes, { apiChannels });
  await server.register(webhooksRoutes, { webhooks });
  await server.register(agentsRoutes, { agentsService: agents, agentPolicy });
  await server.register(automationsRoutes, { automationsService: automations });
  await server.register(automationCallbackRoutes, { automationsService: automations });
  await server.register(workflowsRoutes, { workflowsService: workflows });
  await server.register(n8nRoutes, { n8nService: n8n });
  await server.register(hooksRoutes, { hooksService: hooks });
  await server.register(contentRoutes, { contentService: content, blogPostsService: blogPosts });
  await server.register(contactRoutes, { contactService: contact, newsletterService: newsletter });
  await server.register(billingRoutes, { billingService: billing });
  await server.register(onboardingRoutes, { onboardingService: onboarding, invitationsService: invitations, publicRateLimitPerMinute: config.authRateLimitPerMinute });
  await server.register(controlRoutes, { services, backup: () => backups.create() });
  const dev = config.env === 'development';
  const siteRenderer = options.site?.loadRenderer ?? rendererFromFile(path.resolve(config.webDistDir, '..', 'ssr', 'render.js'), { reload: dev });
  await registerPublicSite(server, {
    distDir: config.webDistDir,
    publicUrl: config.publicUrl,
    dev,
    source: {
      version: async () => {
        const { version, updatedAt } = await content.contentVersion();
        return { token: String(version), updatedAt };
      },
      site: () => content.publicSite(),
      post: (slug) => content.findPublishedPost(slug),
    },
    loadRenderer: siteRenderer,
    ...(options.site?.assets ? { assets: options.site.assets } : {}),
  });
  await registerWebApp(server, {
    distDir: config.webDistDir,
    // In development Vite serves the app's document, so nothing is pre-rendered.
    ...(dev ? {} : { prerender: { loadRenderer: siteRenderer, boot: () => ({ providers: { google: authService.googleEnabled } }) } }),
  });

  await server.ready();
  early.fastPath = createWebhookFastPath(webhooks, logger);
  await realtime.start(events);
  // JOB_CONCURRENCY=0: a web-only instance; workers elsewhere on the database run the jobs.
  if (options.startJobs !== false && config.jobConcurrency > 0) {
    await queue.start();
    await scheduler.start();
    // Events older than 30 days go (docs/events.md, Retention), and so do deliveries that finished before then (docs/webhooks.md).
    publicEvents.startRetention();
    hooks.startRetention();
    errorAlerts.start();
  }

  return {
    server,
    handle,
    queue,
    scheduler,
    logger,
    routes,
    services,
    async close() {
      publicEvents.stopRetention();
      hooks.stopRetention();
      errorAlerts.stop();
      await queue.stop();
      await trainer.close();
      realtime.stop();
      await server.close();
      await events.close();
      await outboundHttp.close();
    },
  };
}
