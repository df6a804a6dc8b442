/**
 * Messaging core: channels (with encrypted secrets), contacts, conversations, messages, the raw
 * inbound events kept for audit and replay, the delivery log of custom-platform callbacks, and the
 * internal chats between admins and client users.
 */
import type { Kysely } from 'kysely';
import { execAll } from './helpers';

export async function up(db: Kysely<unknown>): Promise<void> {
  await execAll(db, [
    `create table channels (
      id uuid primary key default gen_random_uuid(),
      client_id uuid not null references clients (id) on delete cascade,
      kind text not null check (kind in ('whatsapp', 'messenger', 'instagram', 'webchat', 'api')),
      name text not null check (length(btrim(name)) between 1 and 100),
      status text not null default 'active' check (status in ('active', 'disabled')),
      -- phone number id (whatsapp), page id (messenger), Instagram account id, public widget id
      -- (webchat); null for api channels, which are addressed by their own id.
      external_id text check (external_id is null or length(external_id) between 1 and 200),
      callback_url text check (callback_url is null or length(callback_url) <= 2048),
      -- AES-256-GCM sealed JSON of the channel's secrets (server/lib/secret-box.ts).
      secrets text,
      -- sha256 of the webhook verify token, to answer Meta's handshake without decrypting.
      verify_token_hash text,
      -- sha256 of the app secret, to tell which channels share a Meta app.
      app_secret_hash text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      check ((kind = 'api') = (external_id is null)),
      check (kind <> 'api' or callback_url is not null),
      check (kind not in ('whatsapp', 'messenger', 'instagram') or (secrets is not null and verify_token_hash is not null and app_secret_hash is not null))
    )`,
    `create unique index channels_kind_external_id_idx on channels (kind, external_id) where external_id is not null`,
    `create index channels_client_id_idx on channels (client_id)`,
    `create index channels_verify_token_idx on channels (verify_token_hash) where verify_token_hash is not null`,

    `create table contacts (
      id uuid primary key default gen_random_uuid(),
      client_id uuid not null references clients (id) on delete cascade,
      channel_id uuid not null references channels (id) on delete cascade,
      external_id text not null check (length(external_id) between 1 and 200),
      name text check (name is null or length(name) <= 200),
      avatar_url text check (avatar_url is null or length(avatar_url) <= 2048),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (channel_id, external_id)
    )`,
    `create index contacts_client_id_idx on contacts (client_id)`,

    // One conversation per contact: a resolved conversation reopens when the customer writes again.
    `create table conversations (
      id uuid primary key default gen_random_uuid(),
      client_id uuid not null references clients (id) on delete cascade,
      channel_id uuid not null references channels (id) on delete cascade,
      contact_id uuid not null unique references contacts (id) on delete cascade,
      user_id uuid references users (id) on delete set null,
      title text check (title is null or length(title) <= 200),
      status text not null default 'active' check (status in ('active', 'pending', 'escalated', 'resolved')),
      handled_by text not null default 'ai' check (handled_by in ('ai', 'human')),
      assigned_agent_id uuid references users (id) on delete set null,
      external_conversation_id text,
      priority text not null default 'low' check (priority in ('low', 'medium', 'high')),
      ai_summary text,
      unread_count integer not null default 0 check (unread_count >= 0),
      last_message_at timestamptz,
      last_message_preview text,
      -- last message from the customer: opens the 24-hour customer-service window
      last_inbound_at timestamptz,
      first_response_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`,
    `create index conversations_client_last_idx on conversations (client_id, last_message_at desc nulls last)`,
    `create index conversations_last_idx on conversations (last_message_at desc nulls last)`,

    `create table messages (
      id uuid primary key default gen_random_uuid(),
      conversation_id uuid not null references conversations (id) on delete cascade,
      client_id uuid not null references clients (id) on delete cascade,
      channel_id uuid not null references channels (id) on delete cascade,
      direction text not null check (direction in ('inbound', 'outbound')),
      sender_type text not null check (sender_type in ('customer', 'ai', 'agent', 'system')),
      sender_id uuid references users (id) on delete set null,
      content text not null default '' check (length(content) <= 20000),
      message_type text not null default 'text'
        check (message_type in ('text', 'image', 'audio', 'video', 'document', 'location', 'sticker', 'reaction', 'unsupported')),
      media jsonb,
      -- inbound messages are 'received'; outbound ones move queued -> sent -> delivered -> read, or failed
      status text not null check (status in ('received', 'queued', 'sent', 'delivered', 'read', 'failed')),
      error_code text,
      error_message text,
      attempts integer not null default 0,
      external_message_id text check (external_message_id is null or length(external_message_id) <= 512),
      priority text not null default 'low' check (priority in ('low', 'medium', 'high')),
      ai_summary text,
      ai_confidence real check (ai_confidence is null or (ai_confidence >= 0 and ai_confidence <= 1)),
      read_at timestamptz,
      sent_at timestamptz,
      delivered_at timestamptz,
      seen_at timestamptz,
      created_at timestamptz not null default now(),
      check ((direction = 'inbound') = (sender_type = 'customer')),
      check ((direction = 'inbound') = (status = 'received'))
    )`,
    // At-least-once delivery from the platforms: a redelivered message cannot be stored twice.
    `create unique index messages_channel_external_idx on messages (channel_id, external_message_id) where external_message_id is not null`,
    `create index messages_conversation_created_idx on messages (conversation_id, created_at)`,
    `create index messages_client_created_idx on messages (client_id, created_at desc)`,
    `create index messages_created_idx on messages (created_at desc)`,

    // Raw deliveries as received (after the signature check), for audit and replay.
    `create table inbound_events (
      id bigint generated always as identity primary key,
      provider text not null check (provider in ('whatsapp', 'messenger', 'instagram', 'api', 'webchat')),
      channel_ids uuid[] not null,
      body text not null,
      received_at timestamptz not null default now(),
      processed_at timestamptz,
      error text
    )`,
    `create index inbound_events_received_idx on inbound_events (received_at desc)`,

    // Every attempt to POST a reply to a custom platform's callback URL.
    `create table channel_deliveries (
      id bigint generated always as identity primary key,
      channel_id uuid not null references channels (id) on delete cascade,
      message_id uuid references messages (id) on delete set null,
      attempt integer not null,
      url text not null,
      status_code integer,
      response_body text,
      error text,
      duration_ms integer not null default 0,
      created_at timestamptz not null default now()
    )`,
    `create index channel_deliveries_channel_idx on channel_deliveries (channel_id, created_at desc)`,

    // Internal chats between admins and client users (spec part 2 "Chat Management").
    `create table chat_threads (
      id uuid primary key default gen_random_uuid(),
      created_by uuid references users (id) on delete set null,
      last_message_at timestamptz,
      last_message_preview text,
      created_at timestamptz not null default now()
    )`,
    `create table chat_participants (
      thread_id uuid not null references chat_threads (id) on delete cascade,
      user_id uuid not null references users (id) on delete cascade,
      last_read_at timestamptz,
      primary key (thread_id, user_id)
    )`,
    `create index chat_participants_user_idx on chat_participants (user_id)`,
    `create table chat_messages (
      id uuid primary key default gen_random_uuid(),
      thread_id uuid not null references chat_threads (id) on delete cascade,
      sender_id uuid references users (id) on delete set null,
      body text not null check (length(btrim(body)) between 1 and 5000),
      created_at timestamptz not null default now()
    )`,
    `create index chat_messages_thread_idx on chat_messages (thread_id, created_at)`,
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await execAll(db, [
    'drop table chat_messages',
    'drop table chat_participants',
    'drop table chat_threads',
    'drop table channel_deliveries',
    'drop table inbound_events',
    'drop table messages',
    'drop table conversations',
    'drop table contacts',
    'drop table channels',
  ]);
}
