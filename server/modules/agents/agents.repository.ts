/**
 * The SQL of agent configuration: `agents` rows, the clients and channels they belong to, and the
 * reply statistics shown with an agent (answers by engine, LLM cost; read from messaging's
 * `messages` and `conversations`, a listed read). Callers inside a transaction pass it as `db`.
 */
import { sql, type Insertable } from 'kysely';
import { type Db, PREPARED } from '../../db/database';
import type { Agent, AgentsTable, Channel } from '../../db/schema';

/** The columns written when an agent's configuration is saved. */
export type AgentRowValues = Omit<Insertable<AgentsTable>, 'id' | 'clientId' | 'createdAt'>;

export class AgentsRepository {
  constructor(private readonly db: Db) {}

  async clientName(clientId: string, db: Db = this.db): Promise<string | undefined> {
    const client = await db.selectFrom('clients').select('companyName').where('id', '=', clientId).executeTakeFirst();
    return client?.companyName;
  }

  /** The client's name and since when its automation is paused (null: it is not). */
  async getClientHeader(clientId: string): Promise<{ companyName: string; automationPausedAt: Date | null }> {
    return this.db.selectFrom('clients').select(['companyName', 'automationPausedAt']).where('id', '=', clientId).executeTakeFirstOrThrow();
  }

  /** The clients' ids by company name; only `onlyClientId` when given. */
  async clientIds(onlyClientId?: string): Promise<string[]> {
    let q = this.db.selectFrom('clients').select('id').orderBy('companyName');
    if (onlyClientId !== undefined) q = q.where('id', '=', onlyClientId);
    return (await q.execute()).map((c) => c.id);
  }

  async findAgent(clientId: string, db: Db = this.db): Promise<Agent | undefined> {
    return db.selectFrom('agents').selectAll().where('clientId', '=', clientId).executeTakeFirst();
  }

  /** What the satisfaction request needs about a conversation (SatisfactionRequests; a listed read of messaging's tables). */
  async surveyContext(conversationId: string): Promise<
    { clientId: string; status: string; kind: Channel['kind']; channelStatus: string; lastInboundAt: Date | null; agent: Agent | null } | undefined
  > {
    const row = await this.db
      .selectFrom('conversations as c')
      .innerJoin('channels as ch', 'ch.id', 'c.channelId')
      .leftJoin('agents as a', 'a.clientId', 'c.clientId')
      .select(['c.clientId', 'c.status', 'ch.kind', 'ch.status as channelStatus', 'c.lastInboundAt', 'a.id as agentId'])
      .where('c.id', '=', conversationId)
      .executeTakeFirst();
    if (!row) return undefined;
    return { clientId: row.clientId, status: row.status, kind: row.kind, channelStatus: row.channelStatus, lastInboundAt: row.lastInboundAt, agent: row.agentId ? ((await this.findAgent(row.clientId)) ?? null) : null };
  }

  async findAgentForUpdate(clientId: string, trx: Db): Promise<Agent | undefined> {
    return trx.selectFrom('agents').selectAll().where('clientId', '=', clientId).forUpdate().executeTakeFirst();
  }

  async upsertAgent(clientId: string, values: AgentRowValues, trx: Db): Promise<void> {
    await trx
      .insertInto('agents')
      .values({ clientId, ...values })
      .onConflict((oc) => oc.column('clientId').doUpdateSet(values))
      .execute();
  }

  async channels(clientId: string): Promise<Pick<Channel, 'id' | 'name' | 'kind'>[]> {
    return this.db.selectFrom('channels').select(['id', 'name', 'kind']).where('clientId', '=', clientId).orderBy('createdAt').execute();
  }

  /** How many of `channelIds` belong to the client. */
  async countOwnedChannels(clientId: string, channelIds: readonly string[], trx: Db): Promise<number> {
    const owned = await trx.selectFrom('channels').select('id').where('clientId', '=', clientId).where('id', 'in', [...channelIds]).execute();
    return owned.length;
  }

  /** The client whose website widget is `widgetId`, if there is one. */
  async webchatClientId(widgetId: string): Promise<string | undefined> {
    const channel = await this.db.selectFrom('channels').select('clientId').where('kind', '=', 'webchat').where('externalId', '=', widgetId).executeTakeFirst();
    return channel?.clientId;
  }

  /** `parley_agent_context` for an inbound message: its JSON (see AgentPolicy's contextFromJson), or null. */
  async agentContext(messageId: string, db: Db = this.db): Promise<unknown> {
    const { rows } = await sql<{ context: unknown }>`${sql.raw(PREPARED)}select parley_agent_context(${JSON.stringify({ messageId })}::jsonb) as context`.execute(db);
    return rows[0]?.context ?? null;
  }

  /** The agent's answers and hand-offs since `since`, and its average confidence when answering. */
  async replyStats(clientId: string, since: Date): Promise<{ replies: number; escalations: number; averageConfidence: number | null }> {
    const row = await this.db
      .selectFrom('messages')
      .select([
        sql<string>`count(*) filter (where ai->>'decision' = 'answer')`.as('replies'),
        sql<string>`count(*) filter (where ai->>'decision' = 'handoff')`.as('escalations'),
        sql<number | null>`avg(ai_confidence) filter (where ai->>'decision' = 'answer')`.as('confidence'),
      ])
      .where('clientId', '=', clientId)
      .where('senderType', '=', 'ai')
      .where('createdAt', '>=', since)
      .executeTakeFirstOrThrow();
    return {
      replies: Number(row.replies),
      escalations: Number(row.escalations),
      averageConfidence: row.confidence === null ? null : Number(row.confidence),
    };
  }

  /**
   * The client's AI messages since `since` by what produced them (`messages.ai`), the LLM's tokens
   * and cost, and the automated resolutions: conversations with an AI answer since `since` in which
   * no person has written, the agent never handed off, and that are not escalated now.
   */
  async engineStats(clientId: string, since: Date): Promise<EngineStats> {
    const row = await this.db
      .selectFrom('messages')
      .select([
        sql<string>`count(*) filter (where ai->>'decision' = 'answer' and ai->>'engine' = 'embedded')`.as('embedded'),
        sql<string>`count(*) filter (where ai->>'decision' = 'answer' and ai->>'engine' <> 'embedded')`.as('llm'),
        sql<string>`count(*) filter (where ai->>'decision' = 'greeting')`.as('greeting'),
        sql<string>`count(*) filter (where ai->>'decision' = 'away')`.as('away'),
        sql<string>`count(*) filter (where ai->>'decision' = 'handoff')`.as('handoffs'),
        sql<string>`count(*) filter (where ai->>'decision' = 'fallback')`.as('fallbacks'),
        // The greeting and away texts carry the configured engine but call nothing.
        sql<string>`count(*) filter (where ai->>'decision' not in ('greeting', 'away') and (ai->>'engine' <> 'embedded' or ai ? 'fallbackReason'))`.as('llmCalls'),
        sql<string>`count(*) filter (where ai ? 'fallbackReason')`.as('llmFailures'),
        sql<string>`coalesce(sum((ai->'usage'->>'inputTokens')::bigint), 0)`.as('inputTokens'),
        sql<string>`coalesce(sum((ai->'usage'->>'outputTokens')::bigint), 0)`.as('outputTokens'),
        sql<string>`coalesce(sum((ai->'usage'->>'costUsd')::float8), 0)`.as('costUsd'),
        sql<string>`(select count(distinct a.conversation_id) from messages a
          join conversations c on c.id = a.conversation_id and c.status <> 'escalated'
          where a.client_id = ${clientId} and a.sender_type = 'ai' and a.created_at >= ${since} and a.ai->>'decision' = 'answer'
            and not exists (select 1 from messages p where p.conversation_id = a.conversation_id
              and (p.sender_type = 'agent' or (p.sender_type = 'ai' and p.ai->>'decision' = 'handoff'))))`.as('resolutions'),
      ])
      .where('clientId', '=', clientId)
      .where('senderType', '=', 'ai')
      .where('createdAt', '>=', since)
      .where('ai', 'is not', null)
      .executeTakeFirstOrThrow();
    return {
      answers: { embedded: Number(row.embedded), llm: Number(row.llm), greeting: Number(row.greeting), away: Number(row.away) },
      handoffs: Number(row.handoffs),
      fallbacks: Number(row.fallbacks),
      llmCalls: Number(row.llmCalls),
      llmFailures: Number(row.llmFailures),
      inputTokens: Number(row.inputTokens),
      outputTokens: Number(row.outputTokens),
      llmCostUsd: Math.round(Number(row.costUsd) * 1e9) / 1e9,
      automatedResolutions: Number(row.resolutions),
    };
  }
}

export interface EngineStats {
  answers: { embedded: number; llm: number; greeting: number; away: number };
  handoffs: number;
  fallbacks: number;
  llmCalls: number;
  llmFailures: number;
  inputTokens: number;
  outputTokens: number;
  llmCostUsd: number;
  automatedResolutions: number;
}
