/**
 * The AI agent's database function (AgentPolicy; the agent job's hint). Applied by
 * `migrateToLatest` when this file changes; the rules (only `create or replace`, signature changes
 * need a migration) are in server/db/routines.ts. First created by migration 0005.
 */
import { defineSqlRoutines } from '../../db/routines';

export const agentsRoutines = defineSqlRoutines({
  name: 'agents',
  statements: [
    // What the AI agent needs to answer one customer message ({messageId}: the agent's job
    // payload), in one read: the message, its conversation, channel, contact and client, the
    // client's agent and live knowledge version, whether a newer customer message or an answer
    // exists, and the conversation's 30 most recent messages (newest first). Null for an unknown
    // or outbound message. AgentPolicy reads it; it is also the agent job's hint.
    `create or replace function parley_agent_context(p_payload jsonb) returns jsonb language plpgsql stable as $$
    begin
      return (select jsonb_build_object(
        'id', m.id, 'content', m.content, 'createdAt', m.created_at, 'externalMessageId', m.external_message_id,
        'conversationId', m.conversation_id, 'clientId', m.client_id, 'channelId', m.channel_id, 'priority', m.priority,
        'status', c.status, 'handledBy', c.handled_by, 'lastInboundAt', c.last_inbound_at,
        'kind', ch.kind, 'channelStatus', ch.status, 'contactExternalId', ct.external_id, 'contactName', ct.name,
        'companyName', cl.company_name,
        -- the client's automation paused (docs/client-dashboard.md): the away text and people instead
        'automationPaused', cl.automation_paused_at is not null,
        'liveVersion', (select kb.live_version from knowledge_bases kb where kb.client_id = m.client_id),
        'agent', (select to_jsonb(a) from agents a where a.client_id = m.client_id),
        -- only the newest customer message is answered (ties on the time broken by id), and only
        -- if nobody answered since
        'superseded', exists (
          select 1 from messages l
          where l.conversation_id = m.conversation_id and l.id <> m.id
            and ((l.direction = 'inbound' and (l.created_at > m.created_at or (l.created_at = m.created_at and l.id > m.id)))
              or (l.sender_type in ('ai', 'agent') and l.created_at >= m.created_at))),
        'recent', coalesce((
          select jsonb_agg(jsonb_build_object('senderType', h.sender_type, 'content', h.content, 'createdAt', h.created_at) order by h.created_at desc, h.id desc)
          from (select sender_type, content, created_at, id from messages
                where conversation_id = m.conversation_id order by created_at desc, id desc limit 30) h), '[]'::jsonb))
      from messages m
      join conversations c on c.id = m.conversation_id
      join channels ch on ch.id = m.channel_id
      join contacts ct on ct.id = c.contact_id
      join clients cl on cl.id = m.client_id
      where m.id = (p_payload->>'messageId')::uuid and m.direction = 'inbound');
    end $$`,
  ],
});
