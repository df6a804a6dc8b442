/**
 * Read side of conversations and messages, in their API shapes. Every query takes a scope:
 * `{ clientId }` restricts to one client (client users), `{ clientId: null }` sees all (staff).
 * Tenant isolation lives here, in the WHERE clause of every query — never in the caller.
 * Also the reopen notifier's statements (reopen-notifier.ts), in its transaction. Message lists
 * (threads, the messages view) are in messages-view.repository.ts.
 */
import { sql } from 'kysely';
import type { z } from 'zod';
import type { AnswerSourceView, ContactView, ConversationView, findConversationsQuery, MessageView } from '../../../common/api/conversations';
import { contactLabel } from '../../../common/messaging/contact-label';
import { sentimentLabel } from '../../../common/messaging/sentiment';
import type { Db } from '../../db/database';
import type { Scope } from '../../http/scope';
import type { JobCompletion } from '../../jobs/define-job';
import { containsPattern } from '../../lib/search';
import { BUSINESS_FIRST_CHANNELS, CUSTOMER_SERVICE_WINDOW_MS, WINDOW_CHANNELS } from '../messaging';

export type { Scope };

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/**
 * `contactLabel` (common/messaging/contact-label.ts) in SQL, over the joined `ct` (contacts) and
 * `ch` (channels), so a search finds a contact by the label the screens show. Keep the two in step
 * (conversations.routes.test.ts searches by both kinds of label).
 */
export const contactLabelSql = sql<string>`coalesce(nullif(btrim(ct.name), ''), case
  when ch.kind = 'webchat' and length(ct.external_id) >= 4 then 'Website visitor ' || upper(right(ct.external_id, 4))
  when ch.kind = 'whatsapp' and ct.external_id ~ '^[0-9]{6,15}$' then '+' || ct.external_id
  else ct.external_id end)`;

/**
 * Full-text search over messages: PostgreSQL's 'english' configuration (stemming: "brake" finds
 * "brakes"; other languages still match word for word), through the GIN index of migration 0009
 * — this must stay the indexed expression, `to_tsvector('english'::regconfig, content)`.
 * `websearch_to_tsquery` reads any input (quotes, `or`, `-word`; `'&|!:*()` is not syntax to it).
 */
export const messageSearchVector = (alias: string) => sql`to_tsvector('english'::regconfig, ${sql.ref(`${alias}.content`)})`;
export const searchQuery = (search: string) => sql`websearch_to_tsquery('english'::regconfig, ${search})`;

/**
 * Per conversation, its messages matching `search`: the best rank (ts_rank, normalised to 0…1 by
 * rank/(rank+1)) and that message's id (the newest among equals). Scoped like every query here.
 */
export function messageSearchHits(db: Db, scope: Scope, search: string, clientId?: string) {
  const rank = sql<number>`ts_rank(${messageSearchVector('hm')}, ${searchQuery(search)}, 32)`;
  let q = db
    .selectFrom('messages as hm')
    .select([
      'hm.conversationId',
      sql<number>`max(${rank})`.as('rank'),
      sql<string>`(array_agg(hm.id order by ${rank} desc, hm.created_at desc, hm.id desc))[1]`.as('messageId'),
    ])
    .where(sql<boolean>`${messageSearchVector('hm')} @@ ${searchQuery(search)}`)
    .groupBy('hm.conversationId');
  if (scope.clientId !== null) q = q.where('hm.clientId', '=', scope.clientId);
  if (clientId) q = q.where('hm.clientId', '=', clientId);
  return q;
}

function conversationQuery(db: Db, scope: Scope) {
  let q = db
    .selectFrom('conversations as c')
    .innerJoin('clients as cl', 'cl.id', 'c.clientId')
    .innerJoin('channels as ch', 'ch.id', 'c.channelId')
    .innerJoin('contacts as ct', 'ct.id', 'c.contactId')
    .leftJoin('users as agent', 'agent.id', 'c.assignedAgentId')
    .select((eb) => [
      'c.id',
      'c.clientId',
      'cl.companyName as clientName',
      'c.channelId',
      'ch.name as channelName',
      'ch.kind as platform',
      'ct.id as contactId',
      'ct.name as contactName',
      'ct.externalId as contactExternalId',
      'ct.avatarUrl as contactAvatarUrl',
      'c.title',
      'c.status',
      'c.handledBy',
      'c.assignedAgentId',
      'agent.fullName as assignedAgentName',
      'c.priority',
      'c.priorityReason',
      'c.escalationReason',
      'c.isLead',
      'c.leadEmail',
      'c.leadPhone',
      'c.leadSignals',
      'c.convertedAt',
      'c.aiSummary',
      'c.unreadCount',
      'c.lastMessageAt',
      'c.lastMessagePreview',
      'c.lastInboundAt',
      'c.firstResponseAt',
      'c.responseCount',
      'c.responseSecondsTotal',
      'c.sentiment',
      'c.createdAt',
      'c.updatedAt',
      eb
        .selectFrom('messages')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('messages.conversationId', '=', 'c.id')
        .as('messageCount'),
      eb
        .selectFrom('messages')
        .select('messages.aiConfidence')
        .whereRef('messages.conversationId', '=', 'c.id')
        .where('messages.senderType', '=', 'ai')
        .orderBy('messages.createdAt', 'desc')
        .limit(1)
        .as('aiConfidence'),
      eb
        .selectFrom('messages')
        .select(sql<Date | null>`min(messages.created_at)`.as('t'))
        .whereRef('messages.conversationId', '=', 'c.id')
        .where('messages.direction', '=', 'inbound')
        .as('firstInboundAt'),
      // What the customer wants now: their latest message's summary.
      eb
        .selectFrom('messages')
        .select('messages.aiSummary')
        .whereRef('messages.conversationId', '=', 'c.id')
        .where('messages.senderType', '=', 'customer')
        .orderBy('messages.createdAt', 'desc')
        .limit(1)
        .as('request'),
      // The knowledge the AI agent's latest answer came from.
      eb
        .selectFrom('messages')
        .select(sql<AnswerSourceView | null>`messages.ai->'sources'->0`.as('source'))
        .whereRef('messages.conversationId', '=', 'c.id')
        .where('messages.senderType', '=', 'ai')
        .where(sql<boolean>`messages.ai->>'decision' = 'answer'`)
        .orderBy('messages.createdAt', 'desc')
        .limit(1)
        .as('matchedEntry'),
    ]);
  if (scope.clientId !== null) q = q.where('c.clientId', '=', scope.clientId);
  return q;
}

type ConversationRow = Awaited<ReturnType<ReturnType<typeof conversationQuery>['executeTakeFirstOrThrow']>>;

export function toConversationView(row: ConversationRow, now: Date): ConversationView {
  const windowed = WINDOW_CHANNELS.has(row.platform);
  const closesAt = windowed && row.lastInboundAt ? new Date(row.lastInboundAt.getTime() + CUSTOMER_SERVICE_WINDOW_MS) : null;
  const firstInbound = row.firstInboundAt ? new Date(row.firstInboundAt) : null;
  return {
    id: row.id,
    clientId: row.clientId,
    clientName: row.clientName,
    channelId: row.channelId,
    channelName: row.channelName,
    platform: row.platform,
    contact: { id: row.contactId, name: row.contactName, externalId: row.contactExternalId, avatarUrl: row.contactAvatarUrl },
    title: row.title,
    status: row.status,
    handledBy: row.handledBy,
    assignedAgentId: row.assignedAgentId,
    assignedAgentName: row.assignedAgentName,
    priority: row.priority,
    aiSummary: row.aiSummary,
    aiConfidence: row.aiConfidence ?? null,
    unreadCount: row.unreadCount,
    messageCount: row.messageCount ?? 0,
    lastMessageAt: iso(row.lastMessageAt),
    lastMessagePreview: row.lastMessagePreview,
    canSendFreeText: !windowed || (closesAt !== null && closesAt.getTime() > now.getTime()),
    windowClosesAt: iso(closesAt),
    responseTimeSeconds:
      row.firstResponseAt && firstInbound ? Math.max(0, Math.round((row.firstResponseAt.getTime() - firstInbound.getTime()) / 1000)) : null,
    averageResponseSeconds: row.responseCount > 0 ? Math.round(row.responseSecondsTotal / row.responseCount) : null,
    sentiment: sentimentLabel(row.sentiment),
    request: row.request ?? null,
    priorityReason: row.priorityReason,
    escalationReason: row.escalationReason,
    matchedEntry: sourceOf(row.matchedEntry),
    isLead: row.isLead,
    leadEmail: row.leadEmail,
    leadPhone: row.leadPhone,
    leadSignals: row.leadSignals,
    convertedAt: iso(row.convertedAt),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** A stored source (jsonb, possibly text on a driver that did not parse it) in the API's shape. */
function sourceOf(value: unknown): AnswerSourceView | null {
  const parsed: unknown = typeof value === 'string' ? JSON.parse(value) : value;
  if (parsed === null || typeof parsed !== 'object') return null;
  const s = parsed as Partial<AnswerSourceView>;
  if ((s.kind !== 'faq' && s.kind !== 'article') || typeof s.id !== 'string' || typeof s.title !== 'string') return null;
  return { kind: s.kind, id: s.id, title: s.title, link: typeof s.link === 'string' ? s.link : null };
}

/** Messages in the shape of `toMessageView`, scoped (also read by messages-view.repository.ts). */
export function messageQuery(db: Db, scope: Scope) {
  let q = db
    .selectFrom('messages as m')
    .innerJoin('conversations as c', 'c.id', 'm.conversationId')
    .innerJoin('clients as cl', 'cl.id', 'm.clientId')
    .innerJoin('channels as ch', 'ch.id', 'm.channelId')
    .innerJoin('contacts as ct', 'ct.id', 'c.contactId')
    .leftJoin('users as sender', 'sender.id', 'm.senderId')
    .leftJoin('satisfactionSurveys as sv', 'sv.id', 'm.surveyId')
    .select((eb) => [
      'm.id',
      'm.conversationId',
      'm.clientId',
      'm.channelId',
      'cl.companyName as clientName',
      'ct.name as contactName',
      'ct.externalId as contactExternalId',
      'ch.kind as platform',
      'm.direction',
      'm.senderType',
      'm.senderId',
      'sender.fullName as senderName',
      'm.content',
      'm.messageType',
      'm.media',
      'm.status',
      'm.errorCode',
      'm.errorMessage',
      'm.externalMessageId',
      'm.priority',
      'm.priorityReason',
      'm.aiSummary',
      'm.aiConfidence',
      'm.ai',
      'm.sentiment',
      'm.readAt',
      'm.createdAt',
      'sv.id as surveyId',
      'sv.status as surveyStatus',
      'sv.rating as surveyRating',
      'sv.comment as surveyComment',
      'sv.answeredAt as surveyAnsweredAt',
      'sv.expiresAt as surveyExpiresAt',
      eb
        .selectFrom('messages as reply')
        .select(sql<Date | null>`min(reply.created_at)`.as('t'))
        .whereRef('reply.conversationId', '=', 'm.conversationId')
        .where('reply.direction', '=', 'outbound')
        .whereRef('reply.createdAt', '>', 'm.createdAt')
        .as('repliedAt'),
    ]);
  if (scope.clientId !== null) q = q.where('m.clientId', '=', scope.clientId);
  return q;
}

type MessageRow = Awaited<ReturnType<ReturnType<typeof messageQuery>['executeTakeFirstOrThrow']>>;

export function toMessageView(row: MessageRow): MessageView {
  const repliedAt = row.repliedAt ? new Date(row.repliedAt) : null;
  const media = row.media;
  const { sha256: _sha256, ...shownMedia } = media ?? {};
  return {
    id: row.id,
    conversationId: row.conversationId,
    clientId: row.clientId,
    clientName: row.clientName,
    contactName: row.contactName,
    platform: row.platform,
    direction: row.direction,
    senderType: row.senderType,
    senderId: row.senderId,
    // A customer's message is signed with the contact's label (its name, else a readable form of its id).
    senderName: row.senderType === 'customer' ? contactLabel({ name: row.contactName, externalId: row.contactExternalId }, row.platform) : row.senderName,
    content: row.content,
    messageType: row.messageType,
    media: media ? shownMedia : null,
    status: row.status,
    errorCode: row.errorCode,
    errorMessage: row.errorMessage,
    externalMessageId: row.externalMessageId,
    priority: row.priority,
    priorityReason: row.priorityReason,
    aiSummary: row.aiSummary,
    aiConfidence: row.aiConfidence,
    ai: row.ai ? { engine: row.ai.engine, decision: row.ai.decision, sources: row.ai.sources, latencyMs: row.ai.latencyMs } : null,
    sentiment: sentimentLabel(row.sentiment),
    read: row.readAt !== null,
    responseTimeSeconds:
      row.direction === 'inbound' && repliedAt ? Math.max(0, Math.round((repliedAt.getTime() - row.createdAt.getTime()) / 1000)) : null,
    survey: surveyOf(row),
    createdAt: row.createdAt.toISOString(),
  };
}

/** The satisfaction survey a message asks or answers (docs/satisfaction.md). */
function surveyOf(row: MessageRow): MessageView['survey'] {
  if (row.surveyId === null || row.surveyStatus === null || row.surveyExpiresAt === null) return null;
  return {
    id: row.surveyId,
    status: row.surveyStatus,
    rating: row.surveyRating,
    comment: row.surveyComment,
    answeredAt: row.surveyAnsweredAt ? new Date(row.surveyAnsweredAt).toISOString() : null,
    expiresAt: new Date(row.surveyExpiresAt).toISOString(),
  };
}

/** Last activity in whole microseconds: exact in a cursor, unlike a JavaScript Date. */
const activity = sql<string>`(extract(epoch from coalesce(c.last_message_at, c.created_at)) * 1000000)::bigint`;

/** Which conversations a list page holds: the tab, a client, the rows after a cursor, how many rows. */
export interface ConversationPageFilter {
  clientId?: string | undefined;
  tab: z.output<typeof findConversationsQuery>['tab'];
  /** The last row's activity key and id (`activityKey`, `id`). */
  cursor: { t: string; id: string } | null;
  limit: number;
}

/** A search's page: its cursor also carries the last row's rank (`scoreKey`). */
export interface ConversationSearchPageFilter extends Omit<ConversationPageFilter, 'cursor'> {
  search: string;
  cursor: { t: string; id: string; r: string } | null;
}

function conversationListQuery(db: Db, scope: Scope, filter: Omit<ConversationPageFilter, 'cursor' | 'limit'>) {
  let q = conversationQuery(db, scope).select(sql<string>`${activity}::text`.as('activityKey'));
  if (filter.clientId) q = q.where('c.clientId', '=', filter.clientId);
  if (filter.tab !== 'all') q = q.where('c.status', '=', filter.tab);
  return q;
}

export class ConversationsRepository {
  constructor(private readonly db: Db) {}

  /** A page of conversations, most recent activity first (rows carry `activityKey` for the cursor). */
  async findConversationPage(scope: Scope, filter: ConversationPageFilter) {
    let plain = conversationListQuery(this.db, scope, filter).select(sql<string | null>`null::uuid`.as('hitMessageId'));
    if (filter.cursor) plain = plain.where(sql<boolean>`(${activity}, c.id) < (${filter.cursor.t}::bigint, ${filter.cursor.id}::uuid)`);
    return plain
      .orderBy(activity, 'desc')
      .orderBy('c.id', 'desc')
      .limit(filter.limit)
      .execute();
  }

  /**
   * A page of conversations matching a search, best first: a match on who the conversation is with
   * (contact label, external id, client, title) scores 1, plus the best matching message's rank
   * (`messageSearchHits`); then most recent activity. A match on part of a word in the last
   * message's preview also counts. Rows carry `hitMessageId` (the matching message) and
   * `scoreKey`, `activityKey` for the cursor.
   */
  async searchConversationPage(scope: Scope, filter: ConversationSearchPageFilter) {
    const pattern = containsPattern(filter.search);
    const who = sql<boolean>`(${sql.join(
      [contactLabelSql, sql`ct.external_id`, sql`cl.company_name`, sql`c.title`].map((e) => sql`${e} ilike ${pattern}`),
      sql` or `,
    )})`;
    const score = sql<number>`((case when ${who} then 1 else 0 end) + coalesce(hit.rank, 0))::float8`;
    let ranked = conversationListQuery(this.db, scope, filter)
      .leftJoin(
        () => messageSearchHits(this.db, scope, filter.search, filter.clientId).as('hit'),
        (join) => join.onRef('hit.conversationId', '=', 'c.id'),
      )
      .select(['hit.messageId as hitMessageId', sql<string>`${score}::text`.as('scoreKey')]).where(sql<boolean>`(${who} or hit.conversation_id is not null or c.last_message_preview ilike ${pattern})`);
    if (filter.cursor) {
      ranked = ranked.where(sql<boolean>`(${score}, ${activity}, c.id) < (${filter.cursor.r}::float8, ${filter.cursor.t}::bigint, ${filter.cursor.id}::uuid)`);
    }
    return ranked
      .orderBy(score, 'desc')
      .orderBy(activity, 'desc')
      .orderBy('c.id', 'desc')
      .limit(filter.limit)
      .execute();
  }

  /** The list's tab counts over the scope (and `clientId`). */
  async countConversations(scope: Scope, clientId: string | undefined) {
    let q = this.db
      .selectFrom('conversations as c')
      .select([
        sql<number>`count(*)::int`.as('all'),
        sql<number>`(count(*) filter (where c.status = 'active'))::int`.as('active'),
        sql<number>`(count(*) filter (where c.status = 'pending'))::int`.as('pending'),
        sql<number>`(count(*) filter (where c.status = 'escalated'))::int`.as('escalated'),
        sql<number>`(count(*) filter (where c.status = 'resolved'))::int`.as('resolved'),
        // "Needs human": handled by a person and not resolved yet.
        sql<number>`(count(*) filter (where c.handled_by = 'human' and c.status <> 'resolved'))::int`.as('human'),
        // Conversations with unread customer messages.
        sql<number>`(count(*) filter (where c.unread_count > 0))::int`.as('unread'),
      ]);
    if (scope.clientId !== null) q = q.where('c.clientId', '=', scope.clientId);
    if (clientId) q = q.where('c.clientId', '=', clientId);
    return q.executeTakeFirstOrThrow();
  }

  async findConversationView(id: string, scope: Scope, now: Date): Promise<ConversationView | undefined> {
    const row = await conversationQuery(this.db, scope).where('c.id', '=', id).executeTakeFirst();
    return row ? toConversationView(row, now) : undefined;
  }

  async findMessageView(id: string, scope: Scope): Promise<MessageView | undefined> {
    const row = await messageQuery(this.db, scope).where('m.id', '=', id).executeTakeFirst();
    return row ? toMessageView(row) : undefined;
  }

  /** A conversation as its events announce it to every instance's realtime hub (staff scope). */
  async findConversationForEvent(id: string, now: Date) {
    const row = await conversationQuery(this.db, { clientId: null }).where('c.id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    return { view: toConversationView(row, now), clientId: row.clientId, channelId: row.channelId, contactExternalId: row.contactExternalId };
  }

  /** A message as its events announce it to every instance's realtime hub (staff scope). */
  async findMessageForEvent(id: string) {
    const row = await messageQuery(this.db, { clientId: null }).select('ct.externalId as contactExternalId').where('m.id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    return { view: toMessageView(row), clientId: row.clientId, conversationId: row.conversationId, channelId: row.channelId, contactExternalId: row.contactExternalId };
  }

  /** One contact's latest messages on a channel (the website visitor's conversation), newest first. */
  async findContactMessageViews(channel: { id: string; clientId: string }, contactExternalId: string, limit: number): Promise<MessageView[]> {
    const rows = await messageQuery(this.db, { clientId: channel.clientId })
      .where('m.channelId', '=', channel.id)
      .where('ct.externalId', '=', contactExternalId)
      .orderBy('m.createdAt', 'desc')
      .orderBy('m.id', 'desc')
      .limit(limit)
      .execute();
    return rows.map(toMessageView);
  }

  /** The client a conversation belongs to, or undefined when it does not exist in this scope. */
  async findConversationClient(id: string, scope: Scope): Promise<string | undefined> {
    let q = this.db.selectFrom('conversations').select('clientId').where('id', '=', id);
    if (scope.clientId !== null) q = q.where('clientId', '=', scope.clientId);
    return (await q.executeTakeFirst())?.clientId;
  }

  /** Messages' contents by id, within the scope. */
  async findMessageContents(ids: readonly string[], scope: Scope): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    let q = this.db.selectFrom('messages').select(['id', 'content']).where('id', 'in', [...ids]);
    if (scope.clientId !== null) q = q.where('clientId', '=', scope.clientId);
    return new Map((await q.execute()).map((r) => [r.id, r.content]));
  }

  /** Which of `words` the search matches, by the same stemming as the search itself. */
  async findMatchingWords(words: readonly string[], search: string): Promise<Set<string>> {
    if (words.length === 0) return new Set();
    const { rows } = await sql<{ word: string }>`
      select w.word from unnest(${[...words]}::text[]) as w(word)
      where tsvector_to_array(to_tsvector('english'::regconfig, w.word)) && tsvector_to_array(to_tsvector('english'::regconfig, ${search}))`.execute(this.db);
    return new Set(rows.map((r) => r.word));
  }

  async findContactViews(scope: Scope, filter: { clientId?: string | undefined; search?: string | undefined; limit: number }): Promise<ContactView[]> {
    let q = this.db
      .selectFrom('contacts as ct')
      .innerJoin('channels as ch', 'ch.id', 'ct.channelId')
      .leftJoin('conversations as c', 'c.contactId', 'ct.id')
      .select(['ct.id', 'ct.clientId', 'ct.channelId', 'ch.kind', 'ct.externalId', 'ct.name', 'ct.avatarUrl', 'c.id as conversationId', 'ct.createdAt'])
      .orderBy('ct.updatedAt', 'desc')
      .limit(filter.limit);
    if (scope.clientId !== null) q = q.where('ct.clientId', '=', scope.clientId);
    if (filter.clientId) q = q.where('ct.clientId', '=', filter.clientId);
    if (filter.search) {
      const pattern = containsPattern(filter.search);
      q = q.where((eb) => eb.or([eb(contactLabelSql, 'ilike', pattern), eb('ct.externalId', 'ilike', pattern)]));
    }
    return (await q.execute()).map((r) => ({
      id: r.id,
      clientId: r.clientId,
      channelId: r.channelId,
      platform: r.kind,
      externalId: r.externalId,
      name: r.name,
      avatarUrl: r.avatarUrl,
      canStart: BUSINESS_FIRST_CHANNELS.has(r.kind),
      conversationId: r.conversationId,
      createdAt: r.createdAt.toISOString(),
    }));
  }

  /** A contact in the scope and its channel's status (starting a conversation), or undefined. */
  async findContactChannelStatus(contactId: string, scope: Scope) {
    let q = this.db
      .selectFrom('contacts')
      .innerJoin('channels', 'channels.id', 'contacts.channelId')
      .select(['contacts.id', 'channels.status as channelStatus'])
      .where('contacts.id', '=', contactId);
    if (scope.clientId !== null) q = q.where('contacts.clientId', '=', scope.clientId);
    return q.executeTakeFirst();
  }

  /** Completes a claimed job in the caller's transaction (reopen-notifier.ts). */
  async completeJob(completion: JobCompletion, trx: Db): Promise<void> {
    await sql`select parley_complete_job(${JSON.stringify(completion)}::jsonb)`.execute(trx);
  }

  /** What a reopened conversation's notification says: its contact, channel, client and the customer's message. */
  async findReopenedNotice(conversationId: string, messageId: string, trx: Db) {
    return trx
      .selectFrom('conversations as c')
      .innerJoin('contacts as ct', 'ct.id', 'c.contactId')
      .innerJoin('channels as ch', 'ch.id', 'c.channelId')
      .innerJoin('clients as cl', 'cl.id', 'c.clientId')
      .innerJoin('messages as m', (join) => join.on('m.id', '=', messageId).onRef('m.conversationId', '=', 'c.id'))
      .select(['c.id', 'c.clientId', 'ct.name', 'ct.externalId', 'ch.kind', 'cl.companyName', 'm.content', 'm.messageType'])
      .where('c.id', '=', conversationId)
      .executeTakeFirst();
  }

  /**
   * Replies (the AI's and people's) created since `since`, by where their delivery stands: reached
   * the platform (sent, delivered, read), failed, not confirmed (unknown) or still queued. Reads
   * the window of `messages_created_idx`.
   */
  async countReplyOutcomes(since: Date, db: Db = this.db): Promise<ReplyOutcomes> {
    const row = await db
      .selectFrom('messages')
      .select((eb) => [
        eb.fn.count<number>('id').filterWhere('status', 'in', ['sent', 'delivered', 'read']).as('delivered'),
        eb.fn.count<number>('id').filterWhere('status', '=', 'failed').as('failed'),
        eb.fn.count<number>('id').filterWhere('status', '=', 'unknown').as('unknown'),
        eb.fn.count<number>('id').filterWhere('status', '=', 'queued').as('queued'),
      ])
      .where('createdAt', '>=', since)
      .where('direction', '=', 'outbound')
      .where('senderType', 'in', ['ai', 'agent'])
      .executeTakeFirstOrThrow();
    return { delivered: Number(row.delivered), failed: Number(row.failed), unknown: Number(row.unknown), queued: Number(row.queued) };
  }
}

/** Replies of a period by delivery outcome (ConversationsRepository.countReplyOutcomes). */
export interface ReplyOutcomes {
  delivered: number;
  failed: number;
  unknown: number;
  queued: number;
}
