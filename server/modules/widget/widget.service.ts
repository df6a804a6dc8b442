/**
 * The website chat widget's server side. A widget is a webchat channel, addressed by its public
 * widget id (the channel's external id); a visitor is a contact on it, identified by a stateless
 * token (./visitor-token.ts). Messages go through the messaging core like any channel's.
 */
import type { Db } from '../../db/database';
import type { Channel } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { AppError, notFound } from '../../lib/errors';
import type { ChannelDirectory, ChannelsService } from '../channels';
import type { AppSettingsService } from '../system';
import type { ClientsService } from '../clients';
import type { ConversationsService } from '../conversations';
import type { MessagingService } from '../messaging';
import type { VisitorTokens } from './visitor-token';
import { toWidgetMessage, type WidgetMessage } from '../../../common/api/widget';
import { WidgetRepository } from './widget.repository';
import { ratingText, SURVEY_MESSAGES, surveyRefusal } from '../../../common/messaging/satisfaction';

/** Shown at the top of the panel (channels have no greeting setting yet). */
export const WIDGET_GREETING = 'Hi! How can we help you today?';
/** The newest messages a visitor's history shows. */
const HISTORY_LIMIT = 200;
/** app_settings key holding the id of the demo client's webchat channel. */
export const DEMO_WIDGET_SETTING = 'demo_widget_channel_id';

export interface WidgetServiceDeps {
  db: Db;
  channels: ChannelDirectory;
  conversations: ConversationsService;
  clients: ClientsService;
  /** Creates the demo widget's channel. */
  channelsService: ChannelsService;
  settings: AppSettingsService;
  messaging: MessagingService;
  visitorTokens: VisitorTokens;
  clock: Clock;
}

export interface Visitor {
  channel: Channel;
  visitorId: string;
}

export class WidgetService {
  readonly #widgets = new WidgetRepository();

  constructor(private readonly deps: WidgetServiceDeps) {}

  /** An active widget's channel; a disabled or unknown one, or one of a deactivated client, is not found. */
  async getWidget(widgetId: string): Promise<Channel> {
    const channel = await this.deps.channels.findAccepting({ kind: 'webchat', externalId: widgetId });
    if (!channel) throw notFound('Widget');
    return channel;
  }

  async getConfig(widgetId: string): Promise<{ widgetId: string; name: string; greeting: string }> {
    const channel = await this.getWidget(widgetId);
    const name = await this.deps.clients.findCompanyName(channel.clientId);
    if (name === undefined) throw notFound('Widget');
    return { widgetId, name, greeting: WIDGET_GREETING };
  }

  /**
   * Resumes the visitor of a valid token, or starts a new one (no token, or one that is forged or
   * for another widget). A name is kept on the visitor's contact.
   */
  async startVisitor(widgetId: string, input: { visitorToken?: string | undefined; name?: string | undefined }) {
    const channel = await this.getWidget(widgetId);
    const resumed = input.visitorToken ? this.deps.visitorTokens.verify(widgetId, input.visitorToken) : null;
    const visitor = resumed && input.visitorToken ? { visitorId: resumed, visitorToken: input.visitorToken } : this.deps.visitorTokens.issue(widgetId);
    if (input.name) await this.deps.messaging.nameContact(channel, visitor.visitorId, input.name);
    return { ...visitor, created: resumed === null };
  }

  /** The visitor a request's bearer token names, on an active widget. */
  async authenticate(widgetId: string, authorization: string | undefined): Promise<Visitor> {
    const channel = await this.getWidget(widgetId);
    const token = /^Bearer\s+(\S+)$/iu.exec(authorization ?? '')?.[1];
    const visitorId = token ? this.deps.visitorTokens.verify(widgetId, token) : null;
    if (!visitorId) throw new AppError('UNAUTHENTICATED', 'A valid visitor token is required. Start a new chat to get one.');
    return { channel, visitorId };
  }

  /**
   * The realtime connection's visitor for a token on an active widget (the WebSocket's principal),
   * or null: the same checks as `authenticate`, without throwing.
   */
  async resolveRealtimeVisitor(widgetId: string, token: string): Promise<{ channelId: string; clientId: string; externalId: string } | null> {
    const visitorId = this.deps.visitorTokens.verify(widgetId, token);
    if (!visitorId) return null;
    const channel = await this.deps.channels.findAccepting({ kind: 'webchat', externalId: widgetId });
    return channel ? { channelId: channel.id, clientId: channel.clientId, externalId: visitorId } : null;
  }

  /** The visitor's conversation, oldest first (empty until they write). */
  async findMessages({ channel, visitorId }: Visitor): Promise<WidgetMessage[]> {
    const messages = await this.deps.conversations.findContactMessages(channel, visitorId, HISTORY_LIMIT);
    return messages.map(toWidgetMessage);
  }

  /**
   * A visitor's message, stored once per `clientMessageId`. The id is namespaced by the visitor, so
   * one visitor can never collide with (or read back) another's message.
   */
  async sendMessage({ channel, visitorId }: Visitor, input: { text: string; clientMessageId: string }): Promise<{ message: WidgetMessage; created: boolean }> {
    const result = await this.deps.messaging.recordInbound(channel, {
      contact: { externalId: visitorId },
      message: { externalId: `${visitorId}:${input.clientMessageId}`, type: 'text', text: input.text },
    });
    const message = await this.deps.conversations.findClientMessage(channel.clientId, result.messageId);
    if (!message) throw new Error(`message ${result.messageId} was recorded but cannot be read`);
    return { message: toWidgetMessage(message), created: result.created };
  }

  /**
   * The visitor's rating of a resolved conversation (the stars under the survey's request,
   * docs/satisfaction.md): stored once as their message, marked with the survey, without
   * reopening the conversation. 404 for a survey that is not this visitor's; 409 when it was
   * already answered or has expired.
   */
  async answerSurvey({ channel, visitorId }: Visitor, surveyId: string, input: { rating: number; comment?: string | undefined }): Promise<WidgetMessage> {
    const history = await this.deps.conversations.findContactMessages(channel, visitorId, HISTORY_LIMIT);
    const request = history.find((m) => m.survey?.id === surveyId && m.direction === 'outbound');
    if (!request?.survey) throw notFound('Survey');
    const refused = surveyRefusal(request.survey, this.deps.clock.now());
    if (refused) throw new AppError('CONFLICT', refused.message, { details: { reason: refused.reason } });
    const comment = input.comment?.trim() ? input.comment.trim() : null;
    const result = await this.deps.messaging.answerSurvey(
      channel,
      { externalId: visitorId },
      { externalId: `${visitorId}:survey:${surveyId}`, text: ratingText(input.rating, comment), answer: { rating: input.rating, comment, surveyId } },
    );
    // Answered or expired between the check and the write (another tab, the clock): say which.
    if (!result) throw new AppError('CONFLICT', SURVEY_MESSAGES.closed, { details: { reason: 'closed' } });
    const message = await this.deps.conversations.findClientMessage(channel.clientId, result.messageId);
    if (!message) throw new Error(`message ${result.messageId} was recorded but cannot be read`);
    return toWidgetMessage(message);
  }

  /**
   * Parley's own demo client and its website chat, created once (idempotent across restarts and
   * across instances starting together). Returns the widget id, or null when an administrator has
   * disabled the demo channel.
   */
  async ensureDemoWidget(companyName: string): Promise<string | null> {
    return this.deps.db.transaction().execute(async (trx) => {
      await this.#widgets.lockDemoWidget(trx);
      const channelId = await this.deps.settings.get(DEMO_WIDGET_SETTING, trx);
      const existing = channelId ? await this.deps.channels.findById(channelId, trx) : undefined;
      if (existing) return existing.status === 'active' ? existing.externalId : null;

      const clientId = await this.deps.clients.createNamedClient(companyName, trx);
      const channel = await this.deps.channelsService.createWebchat(clientId, 'Website chat', trx);
      await this.deps.settings.set(DEMO_WIDGET_SETTING, channel.id, trx);
      return channel.externalId;
    });
  }

  /** Parley's own demo client (the business behind the site's chat), if it was created; its id. */
  async findDemoClientId(): Promise<string | null> {
    const channelId = await this.deps.settings.get(DEMO_WIDGET_SETTING);
    const channel = channelId ? await this.deps.channels.findById(channelId) : undefined;
    return channel?.clientId ?? null;
  }

  /** The demo widget's id, if it exists and is active. */
  async findDemoWidget(): Promise<string | null> {
    const channelId = await this.deps.settings.get(DEMO_WIDGET_SETTING);
    const channel = channelId ? await this.deps.channels.findById(channelId) : undefined;
    return channel && channel.kind === 'webchat' && channel.status === 'active' ? channel.externalId : null;
  }
}
