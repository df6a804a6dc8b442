/**
 * The insights page over a long history (issue 16 §7): `GET /api/v1/insights?period=30d` as an
 * administrator, on PostgreSQL over 1,000,000 messages in 100,000 conversations (goal p95 ≤ 300
 * ms) and on PGlite over 100,000 messages in 10,000 conversations (goal p95 ≤ 1 s), beside a bare
 * route of the same server with the same session.
 *
 * The history is written with set-based SQL straight into a database migrated up to the migration
 * before the insights module's (0026), then migration 0027 runs — so it queues the
 * `insights.backfill` job as it does on a production upgrade — and the real server runs that job to
 * the end before anything is timed. `BENCH_INSIGHTS_SCALE` (default 1) shrinks the history (0.01:
 * a hundredth) to try the bench out; the goals are checked at scale 1 only.
 */
import http from 'node:http';
import path from 'node:path';
import fs from 'node:fs';
import { sql } from 'kysely';
import { pino } from 'pino';
import { type Database, type Db, openDatabase } from '../server/db/database';
import { createMigrator, migrateToLatest } from '../server/db/migrate';
import type { EventBus } from '../server/events/event-bus';
import type { JobQueue } from '../server/jobs/queue';
import { InsightsRepository, type PeriodFilter } from '../server/modules/insights/insights.repository';
import { InsightsService, PREVIOUS_PERIOD_MEDIANS } from '../server/modules/insights/insights.service';
import { SQL_ROUTINES } from '../server/routines';
import type { BenchContext, BenchGroup } from './lib/context';
import { describe as describeLoad, type LoadResult } from './lib/load';
import { connectWhatsApp, cpuMeter, type EngineName, settle, signInAdmin, startParley } from './lib/parley';
import { dropBenchDatabase, freshBenchDatabase } from './lib/postgres';
import { freePort, LOOPBACK, spawnNode, waitFor200 } from './lib/process';
import type { GroupReporter } from './lib/report';
import { kb, median, ms, num, percentile, seconds, sleep } from './lib/stats';
import { tempDir } from './lib/tmp';
import type { BuiltTree } from './lib/tree';
import { deliveryFactory } from './lib/whatsapp';
import { compareTimings } from './lib/compare';
import { type SteadySample, steadyLoad } from './lib/steady';
import { timedAccept } from './webhooks';

/** Shrinks the history (and nothing else): 0.01 → a hundredth of the conversations. */
const SCALE = (() => {
  const raw = process.env.BENCH_INSIGHTS_SCALE;
  const value = raw === undefined || raw === '' ? 1 : Number(raw);
  if (!Number.isFinite(value) || value <= 0 || value > 1) throw new Error(`BENCH_INSIGHTS_SCALE must be in (0, 1], not ${raw}`);
  return value;
})();
const FULL_SCALE = SCALE === 1;

const DATABASE = 'parley_bench_insights';
const CONVERSATIONS: Record<EngineName, number> = { PostgreSQL: 100_000, PGlite: 10_000 };
const GOALS: Record<EngineName, { text: string; max: number }> = {
  PostgreSQL: { text: 'p95 ≤ 300 ms', max: 300 },
  PGlite: { text: 'p95 ≤ 1 s', max: 1_000 },
};
const MESSAGES_PER_CONVERSATION = 10;
const CLIENTS = 50;
const PEOPLE = 5;
const PERIOD_DAYS = 30;

const CONNECTIONS = 4;
const DURATION_S = 20;
const WARMUP_S = 3;
/** One page at a time, after the warm-up: what a single administrator waits (a note). */
const SEQUENTIAL = 20;
const ROLLUP_SAMPLES = 40;
const ROLLUP_WARMUP = 5;
const ROLLUP_BATCH = 100;
const BACKFILL_TIMEOUT_MS = 45 * 60_000;

/** A count as a whole number (num() gives 80 as "80.0"). */
const count = (n: number) => Math.round(n).toLocaleString('en-US');
const batches = (n: number) => `${n} batch${n === 1 ? '' : 'es'}`;

const PAGE_PATH = `/api/v1/insights?period=${PERIOD_DAYS}d`;
const BARE_PATH = '/api/v1/auth/session';

type Spread = 'year' | 'recent';

/**
 * Where the conversations' start times fall: evenly over the last 12 months (a 30-day period
 * covers about a twelfth), or all in the last 29 days (the worst case: every row is in the
 * period). At least 6 hours ago, so a conversation's ten messages (about 4 hours) are all past.
 */
const SPREADS: Record<Spread, { label: string; spanSeconds: number }> = {
  year: { label: 'over 12 months', spanSeconds: 365 * 86_400 - 6 * 3_600 },
  recent: { label: `all in the last ${PERIOD_DAYS} days (worst case)`, spanSeconds: 29 * 86_400 },
};
const MIN_AGE_SECONDS = 6 * 3_600;

// ---------------------------------------------------------------------------------------------
// The history

export interface Seeded {
  conversations: number;
  messages: number;
  /** Conversations started in the last 30 days when the seeding ended. */
  inPeriod: number;
  seedMs: number;
}

/**
 * Writes the history in one transaction: clients (one in ten inactive) each with a channel (website
 * chat, every fourth an API channel) and an AI agent (half with business hours in one of three
 * time zones), five people (managers), and per conversation a contact and ten messages —
 * customer and reply in turn, an hour apart. Each conversation gets a bucket 0–99 from its number:
 *
 *   0–49  resolved by the AI alone (the AI answers within 2–60 s)
 *   50–59 handed to a person after the AI's second answer, assigned, the person answers, resolved
 *   60–67 handed off and assigned, the person has answered the last message only; escalated now
 *   68–71 handed off, nobody assigned yet (escalated now)
 *   72–76 a person answers from the first message (1–60 minutes), assigned; resolved from 75
 *   77–99 with the AI, still open (pending from 95)
 */
/**
 * A version-4 UUID made from a name (md5 with the version and variant digits set): the same ids in
 * every run, and valid where the server checks ids with z.uuid() (a job's payload, an answer).
 */
function uid(prefix: string, expression: string) {
  if (!/^[a-z-]+$/u.test(prefix) || !/^[a-z0-9 %()]+$/u.test(expression)) throw new Error(`uid(${prefix}, ${expression})`);
  return sql.raw(`overlay(overlay(md5('${prefix}' || ${expression}) placing '4' from 13) placing '8' from 17)::uuid`);
}

export async function seedHistory(db: Db, conversations: number, spread: Spread): Promise<Seeded> {
  const started = performance.now();
  const clients = Math.min(CLIENTS, conversations);
  const span = SPREADS[spread].spanSeconds;
  await db.transaction().execute(async (trx) => {
    await sql`
      insert into clients (id, company_name, contact_person, email, status, created_at, updated_at)
      select ${uid('bench-client-', 'k')}, 'Bench Client ' || lpad(k::text, 2, '0'), 'Owner ' || k, 'owner' || k || '@bench.example',
        case when k % 10 = 9 then 'inactive' else 'active' end, now() - interval '400 days', now() - interval '400 days'
      from generate_series(0, ${clients - 1}::int) k`.execute(trx);
    await sql`
      insert into channels (id, client_id, kind, name, external_id, callback_url, created_at, updated_at)
      select ${uid('bench-channel-', 'k')}, ${uid('bench-client-', 'k')},
        case when k % 4 = 3 then 'api' else 'webchat' end,
        case when k % 4 = 3 then 'Shop API' else 'Website chat' end,
        case when k % 4 = 3 then null else 'bench-site-' || k end,
        case when k % 4 = 3 then 'http://127.0.0.1:9/bench-callback' else null end,
        now() - interval '400 days', now() - interval '400 days'
      from generate_series(0, ${clients - 1}::int) k`.execute(trx);
    await sql`
      insert into agents (client_id, name, greeting_text, handoff_text, fallback_text, away_text, business_hours)
      select ${uid('bench-client-', 'k')}, 'Ava ' || k, 'Hello! How can I help?', 'A colleague will take over.', 'Sorry, I do not know that.', 'We are closed now.',
        case when k % 2 = 0 then null else jsonb_build_object(
          'timezone', (array['Europe/Berlin', 'America/New_York', 'Asia/Kolkata'])[1 + k % 3],
          'days', (select jsonb_agg(jsonb_build_object('day', d, 'open', '09:00', 'close', '17:30')) from generate_series(1, 5) d)) end
      from generate_series(0, ${clients - 1}::int) k`.execute(trx);
    await sql`
      insert into users (id, full_name, email, email_verified)
      select ${uid('bench-person-', 'p')}, 'Person ' || p, 'person' || p || '@bench.example', true
      from generate_series(0, ${PEOPLE - 1}::int) p`.execute(trx);
    await sql`insert into user_roles (user_id, role) select ${uid('bench-person-', 'p')}, 'manager' from generate_series(0, ${PEOPLE - 1}::int) p`.execute(trx);

    // One row per conversation with everything its rows are made of (dropped at commit).
    await sql`
      create temporary table bench_seed on commit drop as
      select i, ${uid('bench-conv-', 'i')} as id, ${uid('bench-contact-', 'i')} as contact_id,
        ${uid('bench-client-', `(i % ${clients})`)} as client_id, ${uid('bench-channel-', `(i % ${clients})`)} as channel_id,
        now() - make_interval(secs => ${MIN_AGE_SECONDS}::int + (i::bigint * 2654435761) % ${span}::bigint) as created_at,
        b as bucket,
        case when b between 50 and 76 and b not between 68 and 71 then ${uid('bench-person-', `(i % ${PEOPLE})`)} end as assignee,
        -- the first reply by a person: its message number (99: none)
        case when b between 50 and 59 then 5 when b between 60 and 67 then 9 when b between 72 and 76 then 1 else 99 end as person_from,
        case when b < 60 or b between 75 and 76 then 'resolved' when b between 60 and 71 then 'escalated' when b >= 95 then 'pending' else 'active' end as status,
        2 + (i * 13) % 58 as ai_delay,
        60 + (i * 97) % 3540 as person_delay
      from generate_series(1, ${conversations}::int) i
      cross join lateral (select (i * 37 + 11) % 100 as b) x`.execute(trx);
    await sql`
      insert into contacts (id, client_id, channel_id, external_id, name, created_at, updated_at)
      select contact_id, client_id, channel_id, 'visitor-' || i, 'Customer ' || i, created_at, created_at from bench_seed`.execute(trx);
    // Message j at created_at + (j / 2) hours (+ the reply's delay for odd j): the last is #9.
    await sql`
      insert into conversations (id, client_id, channel_id, contact_id, status, handled_by, assigned_agent_id, escalation_reason,
        last_message_at, last_message_preview, last_inbound_at, first_response_at, response_count, created_at, updated_at)
      select id, client_id, channel_id, contact_id, status,
        case when bucket between 50 and 76 then 'human' else 'ai' end,
        assignee,
        case when bucket between 50 and 71 then 'The customer asked for a person' end,
        last_at, 'Thanks, that helps.', created_at + interval '4 hours',
        created_at + make_interval(secs => case when person_from = 1 then person_delay else ai_delay end), 5,
        created_at,
        last_at + case when status = 'resolved' then interval '10 minutes' else interval '0' end
      from bench_seed
      cross join lateral (select created_at + make_interval(secs => 4 * 3600 + case when person_from <= 9 then person_delay else ai_delay end) as last_at) l`.execute(trx);
    await sql`
      insert into messages (conversation_id, client_id, channel_id, direction, sender_type, sender_id, content, status,
        ai_confidence, ai, created_at, sent_at, delivered_at)
      select s.id, s.client_id, s.channel_id,
        case when m.inbound then 'inbound' else 'outbound' end,
        case when m.inbound then 'customer' when m.person then 'agent' else 'ai' end,
        case when m.person then s.assignee end,
        case when m.inbound then 'Hello, question ' || j || ' about my order ' || s.i || ': where is it, and can I still change the address?'
          when m.person then 'Hi, this is a colleague from the team: I have checked order ' || s.i || ' and changed it for you.'
          else 'Thanks for your message! Orders ship within two working days; you can change the address until then.' end,
        case when m.inbound then 'received' else 'delivered' end,
        case when not m.inbound and not m.person then (50 + (s.i * j) % 50) / 100.0 end,
        case when not m.inbound and not m.person then '{"decision": "answer", "engine": "embedded"}'::jsonb end,
        m.at, case when not m.inbound then m.at end, case when not m.inbound then m.at + interval '1 second' end
      from bench_seed s
      cross join generate_series(0, ${MESSAGES_PER_CONVERSATION - 1}::int) j
      cross join lateral (
        select j % 2 = 0 as inbound, j % 2 = 1 and j >= s.person_from as person,
          s.created_at + make_interval(secs => (j / 2) * 3600
            + case when j % 2 = 0 then 0 when j >= s.person_from then s.person_delay else s.ai_delay end) as at) m`.execute(trx);
  });
  const { rows } = await sql<{ n: string | number }>`
    select count(*) as n from conversations where created_at >= now() - make_interval(days => ${PERIOD_DAYS}::int)`.execute(db);
  return {
    conversations,
    messages: conversations * MESSAGES_PER_CONVERSATION,
    inPeriod: Number(rows[0]?.n ?? 0),
    seedMs: performance.now() - started,
  };
}

// ---------------------------------------------------------------------------------------------
// Load

interface LoopResult {
  /** Round trips of the 200 answers (ms). */
  latencies: number[];
  failed: number;
  firstFailure?: string;
  seconds: number;
  bytes: number;
}

/**
 * Closed-loop load: `connections` keep-alive connections, each sending its next GET when the last
 * answer has been read, for `durationMs` or `count` requests in all.
 */
async function closedLoop(url: string, headers: Record<string, string>, connections: number, until: { durationMs: number } | { count: number }): Promise<LoopResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  let failed = 0;
  let firstFailure: string | undefined;
  let bytes = 0;
  let sent = 0;
  const started = performance.now();
  const more = () => ('durationMs' in until ? performance.now() - started < until.durationMs : sent < until.count);
  const one = () =>
    new Promise<{ status?: number; error?: string; body: string }>((resolve) => {
      const request = http.get(url, { agent, headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.once('end', () => resolve({ status: response.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
        response.once('error', (error) => resolve({ error: error.message, body: '' }));
      });
      request.setTimeout(60_000, () => request.destroy(new Error('no answer within 60 s')));
      request.once('error', (error) => resolve({ error: error.message, body: '' }));
    });
  try {
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (more()) {
          sent += 1;
          const t = performance.now();
          const answer = await one();
          const elapsed = performance.now() - t;
          bytes += Buffer.byteLength(answer.body);
          if (answer.status === 200) latencies.push(elapsed);
          else {
            failed += 1;
            firstFailure ??= answer.error ?? `${answer.status}: ${answer.body.slice(0, 200)}`;
          }
        }
      }),
    );
  } finally {
    agent.destroy();
  }
  return { latencies, failed, ...(firstFailure ? { firstFailure } : {}), seconds: (performance.now() - started) / 1000, bytes };
}

const rps = (r: LoopResult) => r.latencies.length / r.seconds;
const tails = (r: LoopResult) =>
  `p50 ${num(percentile(r.latencies, 50))} / p95 ${num(percentile(r.latencies, 95))} / p99 ${num(percentile(r.latencies, 99))} ms`;
const describeLoop = (r: LoopResult) => `${tails(r)}, ${num(rps(r))} req/s${r.failed ? `, ${r.failed} failed (${r.firstFailure ?? ''})` : ''}`;

async function helloWorld(repoRoot: string): Promise<LoopResult> {
  const port = await freePort();
  const hello = spawnNode([path.join(repoRoot, 'bench/fixtures/hello-fastify.mjs')], { cwd: repoRoot, env: { PORT: String(port), HOST: LOOPBACK } });
  try {
    const url = `http://${LOOPBACK}:${port}/`;
    await waitFor200(url, hello, 30_000);
    await closedLoop(url, {}, CONNECTIONS, { durationMs: 2_000 });
    return await closedLoop(url, {}, CONNECTIONS, { durationMs: 10_000 });
  } finally {
    await hello.stop();
  }
}

// ---------------------------------------------------------------------------------------------
// One engine, one history

interface Storage {
  dataDir: string;
  databaseUrl?: string;
  open(): Promise<Database>;
  remove(): Promise<void>;
}

async function freshStorage(engine: EngineName): Promise<Storage> {
  const dataDir = tempDir('insights');
  if (engine === 'PGlite') {
    return {
      dataDir,
      open: () => openDatabase({ dataDir: path.join(dataDir, 'pglite') }),
      remove() {
        fs.rmSync(dataDir, { recursive: true, force: true });
        return Promise.resolve();
      },
    };
  }
  const databaseUrl = await freshBenchDatabase(DATABASE);
  return {
    dataDir,
    databaseUrl,
    open: () => openDatabase({ url: databaseUrl, poolSize: 2 }),
    async remove() {
      await dropBenchDatabase(DATABASE);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const SERVER_ENV = { DEMO_WIDGET: 'false' };

/**
 * Starts the server on the seeded history (with info logs, where the backfill's last batch says
 * "service levels backfilled") and waits for it; stops it. Resolves with the wall time it was
 * started at and how long it took to answer its first request (the queue, and so the backfill,
 * starts a little before).
 */
async function runBackfill(tree: BuiltTree, engine: EngineName, storage: Storage, report: GroupReporter): Promise<{ startedWall: number; startUpMs: number }> {
  const startedWall = Date.now();
  const server = await startParley(tree, {
    engine,
    existing: { dataDir: storage.dataDir, ...(storage.databaseUrl ? { databaseUrl: storage.databaseUrl } : {}) },
    env: { ...SERVER_ENV, LOG_LEVEL: 'info' },
  });
  const startUpMs = Date.now() - startedWall;
  try {
    const deadline = performance.now() + BACKFILL_TIMEOUT_MS;
    let lastProgress = performance.now();
    for (;;) {
      const output = server.child.output();
      if (output.includes('service levels backfilled')) break;
      const failure = /[^\n]*insights\.backfill[^\n]*job failed[^\n]*/u.exec(output);
      if (failure) throw new Error(`The backfill failed: ${failure[0].slice(0, 600)}`);
      if (server.child.process.exitCode !== null) throw new Error(`The server exited during the backfill:\n${output.slice(-2000)}`);
      if (performance.now() > deadline) throw new Error(`The backfill did not finish within ${BACKFILL_TIMEOUT_MS / 60_000} minutes`);
      if (performance.now() - lastProgress > 30_000) {
        lastProgress = performance.now();
        report.progress(`${engine}: backfill running for ${seconds(Date.now() - startedWall)}…`);
      }
      await sleep(250);
    }
  } finally {
    // SIGTERM: the queue lets the last batch's transaction finish.
    await server.stop();
  }
  return { startedWall, startUpMs };
}

interface BackfillCheck {
  batches: number;
  /** From the first batch's start (the server's, when there was one batch only) to the last one's end. */
  seconds: number;
  /** From the server's start to the last batch's end. */
  fromStartSeconds: number;
  rows: number;
}

/**
 * What the backfill left: no job waiting or failed, one row per conversation, the days adding up
 * to them; and how long it ran. Each batch queues the next in its transaction, so the second job's
 * `created_at` (now(): the transaction's start) is when the first batch began.
 */
async function checkBackfill(db: Db, seeded: Seeded, startedWall: number): Promise<BackfillCheck> {
  const { rows } = await sql<{ pending: string | number; failed: string | number; completed: string | number; lastCompleted: Date | string | null; began: Date | string | null }>`
    select count(*) filter (where status in ('queued', 'running')) as pending, count(*) filter (where status = 'failed') as failed,
      count(*) filter (where status = 'completed') as completed, max(completed_at) as last_completed,
      (select created_at from jobs where name = 'insights.backfill' order by id offset 1 limit 1) as began
    from jobs where name = 'insights.backfill'`.execute(db);
  const jobs = rows[0]!;
  const levels = await sql<{ n: string | number }>`select count(*) as n from conversation_service_levels`.execute(db);
  const days = await sql<{ n: string | number | null }>`select sum(conversations) as n from service_level_daily`.execute(db);
  const levelRows = Number(levels.rows[0]?.n ?? 0);
  const dayTotal = Number(days.rows[0]?.n ?? 0);
  if (Number(jobs.pending) !== 0 || Number(jobs.failed) !== 0 || jobs.lastCompleted === null) {
    throw new Error(`The backfill did not finish cleanly: ${Number(jobs.pending)} job(s) waiting, ${Number(jobs.failed)} failed, ${Number(jobs.completed)} completed`);
  }
  if (levelRows !== seeded.conversations || dayTotal !== seeded.conversations) {
    throw new Error(`After the backfill: ${levelRows} service-level rows and ${dayTotal} conversations in the daily rollups, for ${seeded.conversations} conversations`);
  }
  const time = (value: Date | string) => (value instanceof Date ? value : new Date(value)).getTime();
  const last = time(jobs.lastCompleted);
  const began = jobs.began === null ? startedWall : time(jobs.began);
  return { batches: Number(jobs.completed), seconds: (last - began) / 1000, fromStartSeconds: (last - startedWall) / 1000, rows: levelRows };
}

/** Each read of the page on its own, in the bench process (median of 3): where a page's time goes. */
async function queryTimes(db: Db): Promise<string> {
  const repository = new InsightsRepository(db);
  const now = new Date();
  const from = new Date(now.getTime() - PERIOD_DAYS * 86_400_000);
  const current: PeriodFilter = { from, until: now, clientId: null };
  const previous: PeriodFilter = { from: new Date(from.getTime() - PERIOD_DAYS * 86_400_000), until: from, clientId: null };
  const firstMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 5, 1)).toISOString().slice(0, 10);
  const reads: [string, () => Promise<unknown>][] = [
    ['periodBreakdown', () => repository.periodBreakdown(current)],
    ['periodSummary (previous period)', () => repository.periodSummary(previous, PREVIOUS_PERIOD_MEDIANS)],
    ['clientsByStatus', () => repository.clientsByStatus(null)],
    ['months', () => repository.months(firstMonth, now.toISOString().slice(0, 10), null)],
  ];
  const parts: string[] = [];
  for (const [name, read] of reads) {
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      await read();
      times.push(performance.now() - t);
    }
    parts.push(`${name} ${ms(median(times))}`);
  }
  return parts.join(', ');
}

/**
 * What keeping the rows current costs per reply: a new message in a conversation, then the
 * recompute the `insights.recompute` job makes of it (`InsightsService.refresh`: the
 * conversation's lock, its facts, the upserted row and its day's rollup, one transaction), in the
 * bench process; singly and as a batch (a burst the job takes in one transaction).
 */
async function rollupCost(database: Database): Promise<string> {
  const service = new InsightsService({
    db: database.db,
    // refresh() touches neither: they serve register() and the backfill.
    events: undefined as unknown as EventBus,
    queue: undefined as unknown as JobQueue,
    logger: pino({ level: 'warn' }),
  });
  const { rows } = await sql<{ id: string }>`select id from conversations order by id limit ${ROLLUP_WARMUP + ROLLUP_SAMPLES + ROLLUP_BATCH}::int`.execute(database.db);
  const ids = rows.map((r) => r.id);
  const reply = (conversationIds: readonly string[]) => sql`
    insert into messages (conversation_id, client_id, channel_id, direction, sender_type, content, status, created_at)
    select id, client_id, channel_id, 'outbound', 'ai', 'One more answer from the AI agent.', 'delivered', now()
    from conversations where id = any(${[...conversationIds]}::uuid[])`.execute(database.db);
  const single: number[] = [];
  for (const [index, id] of ids.slice(0, ROLLUP_WARMUP + ROLLUP_SAMPLES).entries()) {
    await reply([id]);
    const t = performance.now();
    await service.refresh([id]);
    if (index >= ROLLUP_WARMUP) single.push(performance.now() - t);
  }
  const batch = ids.slice(ROLLUP_WARMUP + ROLLUP_SAMPLES);
  await reply(batch);
  const t = performance.now();
  await service.refresh(batch);
  const batchMs = performance.now() - t;
  return (
    `one conversation after a new message: median ${ms(median(single))}, p95 ${ms(percentile(single, 95))} (n=${single.length}); ` +
    `${batch.length} conversations in one transaction: ${ms(batchMs)} (${ms(batchMs / Math.max(1, batch.length))} each)`
  );
}

/**
 * The rollups' cost on accepting (issue 16 §7): the busy loads' rates against the others', by the
 * same noise test as the upkeep row (value 1 when within noise or higher, 0 when lower beyond it).
 */
const ACCEPT_GOAL = { text: 'not below the loads without beyond noise (Mann–Whitney p ≥ 0.05 and the CI of the difference contains 0, or higher)', min: 1 };
/** How long before the timed window the busy loads' backfill falls due (see acceptDuringRecompute). */
const BACKFILL_DUE_BEFORE_WINDOW_MS = 1_000;

interface AcceptDuringRecompute {
  /** The idle loads' and the busy loads' results, in the order they ran (ACCEPT_ORDER). */
  idle: LoadResult[];
  busy: LoadResult[];
  /** `insights.backfill` batches that finished before and during each busy load's timed window, and whether the backfill was still going at its end. */
  batchesBefore: number[];
  batchesDuring: number[];
  stillRunning: boolean[];
}

/** The loads, busy (a backfill pending) or not: four pairs, each order twice, so drift over the loads cancels. */
const ACCEPT_ORDER = [false, true, true, false, false, true, true, false];

/** Removes the accepted deliveries not yet processed, and their processing jobs. */
async function dropBacklog(db: Db): Promise<void> {
  await sql`delete from jobs where name = 'webhooks.process-inbound' and status in ('queued', 'running')`.execute(db);
  await sql`delete from inbound_events where processed_at is null`.execute(db);
  // Vacuumed now, so that neither autovacuum nor the dead rows weigh on the next load.
  await sql`vacuum (analyze) inbound_events, jobs`.execute(db);
}

/**
 * Forgets every service-level row and day rollup and queues the backfill (as migration 0027 does on
 * an upgrade), so that the next start has every conversation's rows to compute again. Resolves
 * with the job's id.
 */
async function queueFullBackfill(db: Db, dueInMs = 0): Promise<number> {
  await sql`delete from service_level_daily`.execute(db);
  await sql`delete from conversation_service_levels`.execute(db);
  await sql`delete from jobs where name = 'insights.backfill' and status in ('queued', 'running')`.execute(db);
  const inserted = await sql<{ id: number }>`insert into jobs (name, payload, max_attempts, run_at, singleton_key)
    values ('insights.backfill', '{"after": null}'::jsonb, 20, now() + make_interval(secs => ${dueInMs / 1000}::float8), 'backfill') returning id`.execute(db);
  return Number(inserted.rows[0]!.id);
}

/**
 * Webhook deliveries accepted per second by the history's server, in eight loads (ACCEPT_ORDER),
 * each right after a restart and started the same way: the busy ones with every service-level row
 * and rollup forgotten and the backfill queued, so the instance has the whole history's rows and
 * rollups to compute again — their upkeep at its heaviest — while the deliveries arrive; the idle
 * ones without. After each load the deliveries' backlog (and the rest of a backfill) is dropped
 * from the scratch database, so no load carries another's processing; at the end a backfill run to
 * its end restores the rows for what follows.
 */
async function acceptDuringRecompute(tree: BuiltTree, engine: EngineName, storage: Storage, report: GroupReporter): Promise<AcceptDuringRecompute> {
  const existing = { dataDir: storage.dataDir, ...(storage.databaseUrl ? { databaseUrl: storage.databaseUrl } : {}) };
  const run = Date.now().toString(36);
  let seq = 0;
  // The channel first, on a start of its own, so that no load includes connecting it.
  const setup = await startParley(tree, { engine, existing, env: SERVER_ENV });
  let next: () => ReturnType<ReturnType<typeof deliveryFactory>>;
  try {
    const channel = await connectWhatsApp(tree, setup);
    const factory = deliveryFactory({ phoneNumberId: channel.phoneNumberId, appSecret: channel.appSecret, customers: 500, run });
    next = () => factory(seq++);
  } finally {
    await setup.stop();
  }
  const outcome: AcceptDuringRecompute = { idle: [], busy: [], batchesBefore: [], batchesDuring: [], stillRunning: [] };
  // How long from here to the timed window, per load so far: the busy loads' backfill falls due
  // just before their window, whatever the engine's start-up takes (PGlite's whole backfill is
  // shorter than its start-up and warm-up, so queued as due at once it would be over before it).
  const leads: number[] = [];
  for (const recompute of ACCEPT_ORDER) {
    let firstJob = 0;
    if (recompute) {
      const database = await storage.open();
      try {
        firstJob = await queueFullBackfill(database.db, leads.length === 0 ? 0 : Math.max(0, median(leads) - BACKFILL_DUE_BEFORE_WINDOW_MS));
      } finally {
        await database.close();
      }
    }
    const began = Date.now();
    const server = await startParley(tree, { engine, existing, env: SERVER_ENV });
    let timed: Awaited<ReturnType<typeof timedAccept>>;
    try {
      timed = await timedAccept(server, next, [], new Map());
    } finally {
      await server.stop();
    }
    leads.push(timed.startedAt.getTime() - began);
    const database = await storage.open();
    try {
      // Processing the hundreds of thousands of deliveries just accepted would take minutes and
      // weigh on the next load: this scratch database forgets them.
      await dropBacklog(database.db);
      if (recompute) {
        const rows = await sql<{ before: string | number; during: string | number; after: string | number }>`
          select count(*) filter (where completed_at < ${timed.startedAt}) as before,
                 count(*) filter (where completed_at between ${timed.startedAt} and ${timed.endedAt}) as during,
                 count(*) filter (where completed_at is null or completed_at > ${timed.endedAt}) as after
          from jobs where name = 'insights.backfill' and id >= ${firstJob}`.execute(database.db);
        outcome.busy.push(timed.result);
        outcome.batchesBefore.push(Number(rows.rows[0]?.before ?? 0));
        outcome.batchesDuring.push(Number(rows.rows[0]?.during ?? 0));
        outcome.stillRunning.push(Number(rows.rows[0]?.after ?? 0) > 0);
        // The next load starts without the rest of this backfill.
        await sql`delete from jobs where name = 'insights.backfill' and status in ('queued', 'running')`.execute(database.db);
      } else {
        outcome.idle.push(timed.result);
      }
    } finally {
      await database.close();
    }
  }
  // The rows and rollups back, whole, for the measurements that follow.
  const database = await storage.open();
  try {
    await queueFullBackfill(database.db);
  } finally {
    await database.close();
  }
  await runBackfill(tree, engine, storage, report);
  const restored = await storage.open();
  try {
    // The deleted rows' dead versions vacuumed, so that the reads timed afterwards see tables like the first backfill's.
    await sql`vacuum (analyze) conversation_service_levels, service_level_daily`.execute(restored.db);
  } finally {
    await restored.close();
  }
  return outcome;
}

/** What keeping the rows current costs per delivery (issue 16 §7): steady deliveries, upkeep on and off. */
const UPKEEP_RATE = 100;
const UPKEEP_COUNT = 1_500;
/** Pairs of loads (on and off, the order alternating: on off, off on, …). */
const UPKEEP_PAIRS = 4;

interface UpkeepRound {
  upkeep: boolean;
  /** CPU per delivery (ms): the server process, and its PostgreSQL backends (0 on PGlite, inside the server). */
  serverMs: number;
  postgresMs: number;
  /** `insights.recompute` and `insights.service-level` jobs completed between the load's start and the check (after the server stopped). */
  serviceLevelJobs: number;
  /** Conversations still marked for a recompute at the end (must be 0). */
  marksLeft: number;
  /** Deliveries answered 200, and stored but still unprocessed at the end (must be 0). */
  accepted: number;
  unprocessed: number;
}

/**
 * CPU per processed delivery with the service-level upkeep on and off (INSIGHTS_UPKEEP): each
 * load right after a restart on the history's database, signed WhatsApp deliveries from 500
 * customers sent open-loop at UPKEEP_RATE per second (what an instance that keeps up with its
 * deliveries does), then the instance left to finish (settled: every delivery processed and, with
 * the upkeep on, every conversation's row and day rollup recomputed); the CPU of the server and
 * of its PostgreSQL backends from the first send to the settled end, over the deliveries. Both
 * modes process the same kind of delivery into the same conversations; only the upkeep differs,
 * so the difference is its whole cost: queueing the jobs in the messages' transactions and running them.
 */
async function upkeepCost(tree: BuiltTree, engine: EngineName, storage: Storage): Promise<UpkeepRound[]> {
  const existing = { dataDir: storage.dataDir, ...(storage.databaseUrl ? { databaseUrl: storage.databaseUrl } : {}) };
  const run = `upkeep-${Date.now().toString(36)}`;
  let seq = 0;
  let factory: ReturnType<typeof deliveryFactory> | undefined;
  const rounds: UpkeepRound[] = [];
  const order = Array.from({ length: UPKEEP_PAIRS }, (_, i) => (i % 2 === 0 ? [true, false] : [false, true])).flat();
  for (const upkeep of order) {
    const server = await startParley(tree, { engine, existing, env: { ...SERVER_ENV, INSIGHTS_UPKEEP: upkeep ? 'on' : 'off' } });
    const startedAt = new Date();
    let samples: SteadySample[];
    let cpu: { serverMs: number; postgresMs: number };
    try {
      if (!factory) {
        const channel = await connectWhatsApp(tree, server);
        factory = deliveryFactory({ phoneNumberId: channel.phoneNumberId, appSecret: channel.appSecret, customers: 500, run });
      }
      await settle(server);
      const first = seq;
      const meter = cpuMeter(server);
      samples = await steadyLoad({
        baseUrl: server.url,
        rate: UPKEEP_RATE,
        count: UPKEEP_COUNT,
        make: (i) => {
          const delivery = factory!(first + i);
          return { method: 'POST', path: '/webhooks/whatsapp', headers: delivery.headers, body: delivery.body };
        },
      });
      seq += UPKEEP_COUNT;
      await settle(server, 300_000);
      // The last window's recompute falls due up to two seconds after its marks, and the poll
      // finds it within another: wait past that, then until quiet again (both modes alike).
      await sleep(3_500);
      await settle(server);
      cpu = meter();
    } finally {
      await server.stop();
    }
    const database = await storage.open();
    try {
      const jobs = await sql<{ n: string | number }>`select count(*) as n from jobs
        where name in ('insights.recompute', 'insights.service-level') and completed_at >= ${startedAt}`.execute(database.db);
      const marks = await sql<{ n: string | number }>`select count(*) as n from service_level_marks`.execute(database.db);
      const left = await sql<{ n: string | number }>`select count(*) as n from inbound_events where processed_at is null`.execute(database.db);
      const accepted = samples.filter((s) => s.status === 200).length;
      rounds.push({
        upkeep,
        serverMs: cpu.serverMs / UPKEEP_COUNT,
        postgresMs: cpu.postgresMs / UPKEEP_COUNT,
        serviceLevelJobs: Number(jobs.rows[0]?.n ?? 0),
        marksLeft: Number(marks.rows[0]?.n ?? 0),
        accepted,
        unprocessed: Number(left.rows[0]?.n ?? 0),
      });
    } finally {
      await database.close();
    }
  }
  return rounds;
}

async function measureCase(
  tree: BuiltTree,
  report: GroupReporter,
  engine: EngineName,
  spread: Spread,
  hello: LoopResult,
): Promise<void> {
  const conversations = Math.max(CLIENTS, Math.round(CONVERSATIONS[engine] * SCALE));
  const history = `${count(conversations * MESSAGES_PER_CONVERSATION)} messages in ${count(conversations)} conversations ${SPREADS[spread].label}`;
  const storage = await freshStorage(engine);
  try {
    // The history, on the schema before the insights module; then 0027 queues the backfill.
    report.progress(`${engine}: seeding ${history}…`);
    let seeded: Seeded;
    let database = await storage.open();
    try {
      const migrated = await (await createMigrator(database.db)).migrateTo('0026-job-coalescing');
      if (migrated.error) throw new Error('Migrating to 0026-job-coalescing failed', { cause: migrated.error });
      seeded = await seedHistory(database.db, conversations, spread);
      // PostgreSQL's autovacuum would analyze the new rows within a minute; PGlite has none.
      if (engine === 'PostgreSQL') await sql`analyze`.execute(database.db);
      await migrateToLatest(database.db, { routines: SQL_ROUTINES });
      const queued = await sql<{ n: string | number }>`select count(*) as n from jobs where name = 'insights.backfill' and status = 'queued'`.execute(database.db);
      if (Number(queued.rows[0]?.n) !== 1) throw new Error('Migration 0027 did not queue the insights.backfill job');
    } finally {
      await database.close();
    }
    report.progress(`${engine}: seeded in ${seconds(seeded.seedMs)} (${count(seeded.inPeriod)} conversations in the last ${PERIOD_DAYS} days); backfilling…`);

    const { startedWall, startUpMs } = await runBackfill(tree, engine, storage, report);
    database = await storage.open();
    let backfill: BackfillCheck;
    try {
      backfill = await checkBackfill(database.db, seeded, startedWall);
      if (engine === 'PostgreSQL') await sql`analyze conversation_service_levels, service_level_daily, service_level_events, jobs`.execute(database.db);
    } finally {
      await database.close();
    }
    report.progress(`${engine}: backfilled in ${num(backfill.seconds)} s (${batches(backfill.batches)})`);

    const restartedAt = performance.now();
    const server = await startParley(tree, {
      engine,
      existing: { dataDir: storage.dataDir, ...(storage.databaseUrl ? { databaseUrl: storage.databaseUrl } : {}) },
      env: SERVER_ENV,
    });
    const restartMs = performance.now() - restartedAt;
    let page: LoopResult;
    let bare: LoopResult;
    let sequential: LoopResult;
    let cpu: { serverMs: number; postgresMs: number };
    let bodyBytes: number;
    let counted: number;
    try {
      await settle(server);
      const cookie = await signInAdmin(server);
      const headers = { cookie, accept: 'application/json' };
      const url = `${server.url}${PAGE_PATH}`;
      const probe = await fetch(url, { headers });
      const text = await probe.text();
      if (probe.status !== 200) throw new Error(`GET ${PAGE_PATH} answered ${probe.status}: ${text.slice(0, 300)}`);
      bodyBytes = Buffer.byteLength(text);
      const view = JSON.parse(text) as { totals: { conversations: number } };
      counted = view.totals.conversations;
      // The period moved on since the count (minutes): a few conversations may have left it.
      if (Math.abs(counted - seeded.inPeriod) > Math.max(5, seeded.inPeriod * 0.01)) {
        throw new Error(`The page counts ${counted} conversations in the period; the history has ${seeded.inPeriod}`);
      }
      await closedLoop(url, headers, CONNECTIONS, { durationMs: WARMUP_S * 1000 });
      sequential = await closedLoop(url, headers, 1, { count: SEQUENTIAL });
      bare = await closedLoop(`${server.url}${BARE_PATH}`, headers, CONNECTIONS, { durationMs: DURATION_S * 1000 });
      const meter = cpuMeter(server);
      page = await closedLoop(url, headers, CONNECTIONS, { durationMs: DURATION_S * 1000 });
      cpu = meter();
    } finally {
      await server.stop();
    }

    const goal = spread === 'year' && FULL_SCALE ? GOALS[engine] : undefined;
    report.row({
      figure: `GET ${PAGE_PATH} (admin), ${engine}, ${history}${FULL_SCALE ? '' : ` (BENCH_INSIGHTS_SCALE=${SCALE})`}, ${CONNECTIONS} connections, ${DURATION_S} s`,
      measured: describeLoop(page),
      value: percentile(page.latencies, 95),
      ...(goal ? { goal } : {}),
      baseline: `GET ${BARE_PATH}, same server and session: ${describeLoop(bare)}; hello world: p95 ${ms(percentile(hello.latencies, 95))}, ${num(rps(hello))} req/s`,
      verdict: page.latencies.length === 0 ? 'ERROR' : undefined,
    });
    report.note(
      `${engine}, ${history}: seeded in ${seconds(seeded.seedMs)}; the backfill (migration 0027's \`insights.backfill\` job, ${batches(backfill.batches)} of up to 500 conversations, run by the server) took ${num(backfill.seconds)} s from its first batch's start to its last's end (${count(backfill.rows / Math.max(0.001, backfill.seconds))} conversations/s) and ended ${num(backfill.fromStartSeconds)} s after the server was started; ` +
        `that first start took ${seconds(startUpMs)} to answer a request (the job queue, and so the backfill, starts before the server listens), the restart on the backfilled data ${seconds(restartMs)}. ` +
        `The page counts ${count(counted)} conversations in its period and is ${kb(bodyBytes)} of JSON. One page at a time (${SEQUENTIAL} in a row): ${tails(sequential)}. ` +
        `Under the ${CONNECTIONS}-connection load the server process used ${ms(cpu.serverMs / Math.max(1, page.latencies.length))} of CPU per page` +
        (engine === 'PostgreSQL'
          ? ` and PostgreSQL's backends ${ms(cpu.postgresMs / Math.max(1, page.latencies.length))} (not counting parallel query workers, which exit with their query).`
          : ' (PGlite included).'),
    );

    if (spread === 'year') {
      const accept = await acceptDuringRecompute(tree, engine, storage, report);
      const sum = (results: LoadResult[]) => results.reduce((total, r) => total + r.rps, 0);
      const share = (sum(accept.busy) / Math.max(1, sum(accept.idle))) * 100;
      const rates = (results: LoadResult[]) => results.map((r) => num(r.rps)).join(', ');
      const a = compareTimings(accept.busy.map((r) => r.rps), accept.idle.map((r) => r.rps));
      const signed = (x: number) => `${x >= 0 ? '+' : '−'}${num(Math.abs(x))}`;
      const overlapped = accept.busy.filter((_, i) => accept.batchesDuring[i]! > 0 || accept.stillRunning[i]).length;
      report.row({
        figure: `Webhook deliveries accepted while the service levels and rollups are recomputed (\`insights.backfill\` of the whole history in the same instance), ${engine}, ${history}, 50 connections, ${accept.busy.length} × 10 s against ${accept.idle.length} × 10 s without, alternating`,
        measured:
          `${rates(accept.busy)} req/s = ${num(share)} % of those without (pooled); medians ${num(a.medianA)} vs ${num(a.medianB)} req/s: ${signed(a.difference)}, ` +
          `95 % CI [${signed(a.ci[0])}, ${signed(a.ci[1])}]; Mann–Whitney p = ${a.p.toFixed(2)} → ${a.withinNoise ? 'within noise' : a.difference > 0 ? 'HIGHER' : 'LOWER'}; ` +
          `backfill batches of 500 finished before / during each timed window: ${accept.busy.map((_, i) => `${accept.batchesBefore[i]} / ${accept.batchesDuring[i]}`).join(', ')}; ` +
          `the backfill overlapped the window in ${overlapped} of ${accept.busy.length} (still going at its end in ${accept.stillRunning.filter(Boolean).length})`,
        value: a.withinNoise || a.difference > 0 ? 1 : 0,
        ...(FULL_SCALE ? { goal: ACCEPT_GOAL } : {}),
        baseline: `the same server started the same way without a backfill: ${rates(accept.idle)} req/s (the first: ${describeLoad(accept.idle[0]!)})`,
        verdict: [...accept.idle, ...accept.busy].some((r) => r.ok === 0) ? 'ERROR' : undefined,
      });

      report.progress(`${engine}: the upkeep's cost per delivery (${UPKEEP_PAIRS} pairs of loads)…`);
      const upkeep = await upkeepCost(tree, engine, storage);
      const total = (r: UpkeepRound) => r.serverMs + r.postgresMs;
      const on = upkeep.filter((r) => r.upkeep);
      const off = upkeep.filter((r) => !r.upkeep);
      const c = compareTimings(on.map(total), off.map(total));
      const list = (rounds: UpkeepRound[]) => rounds.map((r) => ms(total(r))).join(', ');
      const capacity = (perDelivery: number) => num(2_000 / Math.max(0.001, perDelivery));
      const broken =
        upkeep.some((r) => r.accepted !== UPKEEP_COUNT || r.unprocessed > 0 || r.marksLeft > 0) ||
        on.some((r) => r.serviceLevelJobs === 0) ||
        off.some((r) => r.serviceLevelJobs > 0);
      report.row({
        figure: `Keeping the service levels and rollups current while deliveries arrive: CPU per processed WhatsApp delivery with the upkeep on vs off (INSIGHTS_UPKEEP), ${engine}, ${history}, ${UPKEEP_RATE}/s × ${num(UPKEEP_COUNT)}, ${UPKEEP_PAIRS} pairs`,
        measured:
          `on ${ms(c.medianA)} vs off ${ms(c.medianB)} (medians): ${c.difference >= 0 ? '+' : '−'}${ms(Math.abs(c.difference))} = ${c.difference >= 0 ? '+' : '−'}${num((Math.abs(c.difference) / Math.max(0.001, c.medianB)) * 100)} %, ` +
          `95 % CI [${ms(c.ci[0])}, ${ms(c.ci[1])}]; Mann–Whitney p = ${c.p.toFixed(2)} → ${c.withinNoise ? 'within noise' : 'DIFFERENT'}; ` +
          `what 2 cores could process at that cost: ${capacity(c.medianA)} vs ${capacity(c.medianB)} deliveries/s`,
        baseline: `the same loads with the upkeep off, alternating: on ${list(on)}; off ${list(off)}`,
        verdict: broken ? 'ERROR' : undefined,
      });
      report.note(
        `${engine}, the upkeep's cost per delivery: ${upkeep.map((r) => `${r.upkeep ? 'on' : 'off'} ${ms(r.serverMs)} server${engine === 'PostgreSQL' ? ` + ${ms(r.postgresMs)} PostgreSQL` : ''}, ${count(r.serviceLevelJobs)} recompute jobs`).join('; ')}` +
          (broken ? ` — ERROR: a load lost or left deliveries unprocessed or conversations marked, or the switch did not hold (${upkeep.map((r) => `${r.accepted} accepted, ${r.unprocessed} unprocessed, ${r.marksLeft} marked`).join('; ')})` : '') +
          '.',
      );
    }

    // Where the time goes, and what the rows cost per reply: in the bench process, server stopped.
    database = await storage.open();
    try {
      report.note(`${engine}, ${history}: each read of the page alone, in the bench process (median of 3): ${await queryTimes(database.db)}.`);
      if (spread === 'year') {
        report.row({
          figure: `Keeping the service levels current, ${engine}, ${history}: the \`insights.recompute\` recompute per reply`,
          measured: await rollupCost(database),
        });
      }
    } finally {
      await database.close();
    }
    if (spread === 'year') {
      report.row({
        figure: `Backfill of the service levels (\`insights.backfill\`), ${engine}, ${count(backfill.rows)} conversations`,
        measured: `${num(backfill.seconds)} s (${batches(backfill.batches)}, ${count(backfill.rows / Math.max(0.001, backfill.seconds))} conversations/s); seeding the history took ${seconds(seeded.seedMs)}`,
      });
    }
  } finally {
    await storage.remove();
  }
}

export const insights: BenchGroup = {
  id: 'insights',
  title: 'Insights page over a long history',
  method: [
    `The history (set-based SQL in one transaction, straight into a database migrated up to 0026): ${CLIENTS} clients (one in ten inactive), each with a channel (website chat; every fourth an API channel) and an AI agent (half with business hours in Berlin, New York or Kolkata), ${PEOPLE} people (managers), and per conversation a contact and ${MESSAGES_PER_CONVERSATION} messages, customer and reply in turn an hour apart. Half the conversations are resolved by the AI alone, 10 % handed to a person who answers and resolves them, 12 % handed off and escalated now (8 % assigned), 5 % answered by a person from the start, the rest open with the AI; the AI answers within 2–60 s, people within 1–60 min. PostgreSQL: ${num(CONVERSATIONS.PostgreSQL * MESSAGES_PER_CONVERSATION)} messages in ${num(CONVERSATIONS.PostgreSQL)} conversations; PGlite: ${num(CONVERSATIONS.PGlite * MESSAGES_PER_CONVERSATION)} in ${num(CONVERSATIONS.PGlite)}. Start times spread evenly over the last 12 months (a 30-day period covers about a twelfth); a second history puts them all in the last ${PERIOD_DAYS} days (the worst case, info). BENCH_INSIGHTS_SCALE (0–1) shrinks the histories to try the bench; goals are checked at 1 only.`,
    `Then migration 0027 and the SQL routines run, so 0027 queues the \`insights.backfill\` job as on an upgrade, and the real server (\`node scripts/start.mjs\` in the built copy, DEMO_WIDGET=false) runs it to the end; the backfill time is from the server's start to the last batch's completion. On PostgreSQL (its own database, ${DATABASE}, dropped afterwards) the tables are analyzed after the seeding and after the backfill, as autovacuum would within a minute; PGlite has no autovacuum and gets no statistics, as in production.`,
    `Load: the server restarted on that database (LOG_LEVEL=warn), left to settle, the administrator signed in; \`GET ${PAGE_PATH}\` with the session cookie from ${CONNECTIONS} keep-alive connections in a closed loop (each sends its next request when its answer has been read) for ${DURATION_S} s after a ${WARMUP_S} s warm-up and ${SEQUENTIAL} pages one at a time (a note). Latency = request to the last byte of the answer; p50 / p95 / p99 over the 200 answers; req/s = 200 answers per second. The first answer's period count is checked against the history.`,
    `Baseline: \`GET ${BARE_PATH}\` on the same server with the same session (the session lookup and one user read, none of the insights reads), and the bare Fastify hello-world route (bench/fixtures/hello-fastify.mjs, its own process, 10 s), with the same load generator, in the same run. The load generator shares the two cores with the server (and PostgreSQL): compare within one run.`,
    `Afterwards, with the server stopped, in the bench process: each of the page's seven reads (InsightsRepository) timed alone, median of 3 (a note), and the cost per reply of keeping the rows current: an AI reply inserted in a conversation, then \`InsightsService.refresh\` of it (what the \`insights.recompute\` job does for a marked conversation it recomputes from the facts: lock, facts, row, day rollup; the mark and the job's queueing are not included — a plain message's mark after the first answer is only added to its row, as in the upkeep loads), ${ROLLUP_SAMPLES} conversations one by one and ${ROLLUP_BATCH} in one transaction.`,
    `The rollups' cost on accepting: on the 12-month history, signed WhatsApp deliveries (as in the webhook group: 50 connections, prebuilt requests, 2 s warm-up, 10 s timed) to a channel connected on that server (on a start of its own, before the loads), in eight loads, each right after a restart and started the same way (no waiting for the server to settle): four busy, with every service-level row and day rollup deleted and an \`insights.backfill\` job queued as migration 0027 queues it, so the instance has the whole history's rows and rollups to compute again while the deliveries arrive — the job due about 1 s before the timed window (the median time from a start to its window in the loads so far), since PGlite's whole backfill is shorter than its start-up and warm-up — and four without; the order busy/without is ${ACCEPT_ORDER.map((b) => (b ? 'B' : 'W')).join('')}, so drift over the loads cancels. After each load its unprocessed deliveries and their jobs (and the rest of a backfill) are deleted from the scratch database, so no load carries another's backlog; after the last, a backfill run to its end restores the rows. The row gives the busy loads' accepted rates against the others' (pooled, and the medians compared by the noise test of the upkeep row) and how many backfill batches finished before and during each busy load's window (an instance under a burst of deliveries starts no new job for a while, by design: see the webhook group).`,
    `What the upkeep costs the processing (information; the goal above is on the accept rate): on the same 12-month history, ${UPKEEP_PAIRS} pairs of loads, one with the upkeep on and one with it off (INSIGHTS_UPKEEP=off: the events mark no conversation and queue no \`insights.recompute\` or \`insights.service-level\` job), the order alternating (on off, off on, …), each right after a restart: signed WhatsApp deliveries from 500 customers (no AI agent on their client, so the processing is at its cheapest and the upkeep's share at its largest) sent open-loop at ${UPKEEP_RATE} per second, ${num(UPKEEP_COUNT)} of them, then the server left until settled (every delivery processed and, with the upkeep on, every row and day rollup recomputed: no conversation left marked; both checked in the database afterwards). CPU of the server process and of its PostgreSQL backends from the first send to the settled end, per delivery; the medians of the two modes compared as in the sign-in group (bootstrap interval, Mann–Whitney), and what 2 cores could process at each cost (2,000 ms / CPU per delivery).`,
    `Goals (issue 16 §7): PostgreSQL over 1,000,000 messages p95 ≤ 300 ms per page; PGlite over 100,000 messages p95 ≤ 1 s; checked on the 12-month history. Accepting while the rollups are recomputed: within noise of the loads without (a bootstrap interval of the difference of medians containing 0 and Mann–Whitney p ≥ 0.05), or higher.`,
  ],
  analysis: [
    'PostgreSQL, 12-month history (2026-11-27, 100,000 conversations, about 8,150 in the period; the machine busy with other work): the page runs its seven reads at once (`Promise.all` over the pool). Alone, `agentPerformance` is by far the slowest: PostgreSQL plans its `UNION ALL` of the AI and person aggregates as a Parallel Append under a Gather Merge with 2 workers, and on these 2 cores that plan took 130–145 ms (as a custom plan, which every call of the unprepared statement gets) against 18–26 ms with `max_parallel_workers_per_gather = 0`; EXPLAIN ANALYZE shows the two branches themselves taking about 37 and 13 ms, the rest is starting and waiting for the workers. The other reads use `conversation_service_levels_created_idx` (a bitmap scan of the period’s rows) and take 7–15 ms; the trends read `service_level_daily`, 8 ms.',
    'The whole page in the bench process (`InsightsService.overview`, 4 at once for 8 s, same database): p95 589–733 ms and 7–9 pages/s with parallel query on (PostgreSQL’s default); p95 256–301 ms and 18–23 pages/s with it off for the database. So not planning these reads in parallel — `SET LOCAL max_parallel_workers_per_gather = 0` in a transaction around them, or in the deployment’s configuration — would likely bring the figure under its 300 ms goal; running the two halves of the `UNION ALL` as separate statements might also avoid the parallel plan (not measured). The bench’s per-page PostgreSQL CPU misses the workers’ share (they exit with their query).',
    'Worst case (every conversation in the period): each read aggregates all 100,000 rows, and the four `percentile_cont` medians sort them again for each of the three groupings (the period, per client, per agent): serially about 110 ms for the summary, 100–140 ms per client and 170–280 ms per agent (420–510 ms in parallel). Only the Trends use the daily rollup; the period’s totals come from the rows too, because the medians need them. One scan with `GROUPING SETS`, or approximate medians kept per day, would cut that work.',
  ],
  async run(ctx: BenchContext, report: GroupReporter) {
    const tree = await ctx.tree();
    const hello = await helloWorld(ctx.repoRoot);
    report.progress(`bare Fastify: ${describeLoop(hello)}`);
    if (await ctx.postgres()) {
      for (const spread of ['year', 'recent'] as const) await measureCase(tree, report, 'PostgreSQL', spread, hello);
    } else {
      report.row({ figure: `GET ${PAGE_PATH}, PostgreSQL`, measured: 'PostgreSQL not reachable (see Machine)', verdict: 'skipped' });
    }
    for (const spread of ['year', 'recent'] as const) await measureCase(tree, report, 'PGlite', spread, hello);
  },
};
