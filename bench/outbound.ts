/**
 * Receipt → outbound request for an immediate automatic reply: a signed WhatsApp delivery arrives,
 * the client's AI agent (embedded engine, response delay 0) answers it, and the reply reaches (a
 * fake of) Meta's Graph API: delivery stored → processing job (message recorded) → the agent's job
 * (the answer, the reply queued) → the durable send job → the WhatsApp adapter's POST
 * /{phone-number-id}/messages. Deliveries arrive open-loop at a steady 100 per second; each is timed
 * from its send to the fake Graph API receiving its reply.
 */
import { sql } from 'kysely';
import { type FakeGraphApi, startFakeGraphApi } from '../test/helpers/fake-graph-api';
import type { BenchContext, BenchGroup } from './lib/context';
import { connectWhatsApp, cpuMeter, enableAgent, type EngineName, settle, startParley } from './lib/parley';
import type { GroupReporter } from './lib/report';
import { ms, num, percentile, sleep } from './lib/stats';
import { type SteadySample, steadyLoad } from './lib/steady';
import type { BuiltTree } from './lib/tree';
import { deliveryFactory } from './lib/whatsapp';

const RATE = 100;
const COUNT = 1_000;
const WARMUP = 500;
const CUSTOMERS = 500;
const GOAL = { text: 'p99 ≤ 150 ms at 100/s', max: 150 };
const LATE_TIMEOUT_MS = 30_000;
/** Example questions per entry of the bench's knowledge base. */
const QUESTIONS_PER_ENTRY = 20;

const p = (samples: readonly number[]) => `p50 ${ms(percentile(samples, 50))}, p95 ${ms(percentile(samples, 95))}, p99 ${ms(percentile(samples, 99))}`;

interface Faq {
  entries: { questions: string[]; answer: string }[];
  /** What the customers ask (questions the entries were not trained on). */
  asked: string[];
  source: string;
}

/**
 * A realistic knowledge base: BANKING77's 77 intents with their first 20 training questions, asked
 * its test questions; a small built-in FAQ when ../shared/datasets is not there.
 */
async function benchFaq(): Promise<Faq> {
  try {
    const datasets = await import('../eval/datasets');
    const { train, test } = datasets.loadBanking77();
    const entries = datasets.toEntries(train).map((e) => ({ questions: e.questions.slice(0, QUESTIONS_PER_ENTRY), answer: `About ${e.id.replaceAll('_', ' ')}: see our help centre.` }));
    return { entries, asked: test.map((e) => e.text), source: `BANKING77: ${entries.length} entries × ${QUESTIONS_PER_ENTRY} questions, asked its test questions` };
  } catch {
    const entries = [
      { questions: ['What are your opening hours?', 'When are you open?', 'What time do you close?'], answer: 'We are open 9:00 to 18:00.' },
      { questions: ['How much is shipping?', 'Is delivery free?', 'What are the delivery fees?'], answer: 'Shipping is free over 50 euros.' },
      { questions: ['How do I get a refund?', 'Can I return my order?', 'What is your refund policy?'], answer: 'Returns are free within 30 days.' },
      { questions: ['Where is my order?', 'Track my package', 'My parcel has not arrived'], answer: 'Track it with the link in your e-mail.' },
    ];
    return { entries, asked: ['when do you open?', 'do you charge for delivery?', 'I want my money back', 'where is my parcel?', 'hello'], source: 'a built-in 4-entry FAQ (../shared/datasets not found)' };
  }
}

interface OutboundRun {
  latency: number[];
  acks: number[];
  /** Send → inbound message row created (server clock), ms. */
  stored: number[];
  /** Send → the reply's row created (the agent's job queued it), ms. */
  replied: number[];
  lost: number;
  duplicates: number;
  failed: number;
  maxLate: number;
  sentReplies: number;
  /** The agent's decisions on the timed deliveries. */
  decisions: Map<string, number>;
  /** CPU per delivery: the server process, and its PostgreSQL backends (0 on PGlite, inside the server). */
  serverCpuMs: number;
  postgresCpuMs: number;
  /** Replies that reached the fake per second, from the first timed send to the last reply. */
  repliesPerSecond: number;
}

export async function measureOutbound(tree: BuiltTree, engine: EngineName, graph: FakeGraphApi, faq: Faq): Promise<OutboundRun> {
  const server = await startParley(tree, { engine, env: { GRAPH_API_BASE_URL: graph.url } });
  try {
    const channel = await connectWhatsApp(tree, server);
    await enableAgent(tree, server, channel.clientId, faq.entries);
    await settle(server); // start-up work (the demo agent's training) out of the way
    const next = deliveryFactory({
      phoneNumberId: channel.phoneNumberId,
      appSecret: channel.appSecret,
      customers: CUSTOMERS,
      run: Date.now().toString(36),
      text: (seq) => faq.asked[seq % faq.asked.length]!,
    });
    const ids: string[] = [];
    const customers: string[] = [];
    const make = (seq: number) => {
      const delivery = next(seq);
      ids[seq] = delivery.id;
      customers[seq] = delivery.waId;
      return { method: 'POST' as const, path: '/webhooks/whatsapp', headers: delivery.headers, body: delivery.body };
    };
    const path = `/v21.0/${channel.phoneNumberId}/messages`;
    /**
     * Replies by the delivery they answer: each customer's replies, in the order they reached the
     * fake, answer that customer's deliveries in the order they were sent (the agent answers every
     * message once, and a conversation's replies go out in order). Matching by order rather than by
     * time keeps the count right when the queue falls behind by more than the 5 s between a
     * customer's messages (a reply arriving after the customer's next message still answers the
     * earlier one): a delivery without a reply is lost, a reply beyond a customer's deliveries a
     * duplicate.
     */
    const arrivals = (samples: readonly { seq: number; sentWall: number }[]) => {
      const byCustomer = new Map<string, { seq: number; sentWall: number }[]>();
      for (const s of samples) {
        const list = byCustomer.get(customers[s.seq]!) ?? [];
        list.push(s);
        byCustomer.set(customers[s.seq]!, list);
      }
      for (const list of byCustomer.values()) list.sort((a, b) => a.sentWall - b.sentWall || a.seq - b.seq);
      const repliesTo = new Map<string, number[]>();
      for (const r of graph.requestsTo('POST', path)) {
        const to = (r.body as { to?: unknown } | null)?.to;
        if (typeof to !== 'string' || !byCustomer.has(to)) continue;
        repliesTo.set(to, [...(repliesTo.get(to) ?? []), r.at]);
      }
      const at = new Map<number, number[]>();
      for (const [customer, replies] of repliesTo) {
        const sent = byCustomer.get(customer)!;
        replies.sort((a, b) => a - b);
        replies.forEach((when, i) => {
          // Beyond the customer's deliveries: a duplicate of the last one.
          const answered = sent[Math.min(i, sent.length - 1)]!;
          at.set(answered.seq, [...(at.get(answered.seq) ?? []), when]);
        });
      }
      return at;
    };

    // Warm-up (JIT, connections, the first conversations), not counted; then let it drain.
    const warm = await steadyLoad({ baseUrl: server.url, rate: RATE, count: WARMUP, make: (seq) => make(COUNT + seq) });
    const warmSent = warm.map((s) => ({ seq: COUNT + s.seq, sentWall: s.sentWall }));
    for (let waited = 0; waited < LATE_TIMEOUT_MS && arrivals(warmSent).size < WARMUP; waited += 100) await sleep(100);
    if (process.env.BENCH_DEBUG) {
      const got = arrivals(warmSent);
      const missing = warmSent.filter((w) => !got.has(w.seq));
      console.log(`  [debug] warm-up: ${got.size}/${WARMUP} answered; missing ${missing.slice(0, 5).map((m) => `${m.seq} (${ids[m.seq]}, customer ${customers[m.seq]})`).join(', ')}`);
    }
    await sleep(500);
    graph.reset();

    const meter = cpuMeter(server);
    const samples: SteadySample[] = await steadyLoad({ baseUrl: server.url, rate: RATE, count: COUNT, make });
    const deadline = performance.now() + LATE_TIMEOUT_MS;
    let seen = arrivals(samples);
    while (performance.now() < deadline && samples.some((s) => !seen.has(s.seq))) {
      await sleep(100);
      seen = arrivals(samples);
    }
    const cpu = meter();
    await sleep(500); // a duplicate would come right after
    seen = arrivals(samples);
    const lastReply = Math.max(...samples.flatMap((s) => seen.get(s.seq) ?? []));
    const firstSend = Math.min(...samples.map((s) => s.sentWall));

    if (process.env.BENCH_DEBUG) {
      console.log(`  [debug] timed run from ${new Date(Math.min(...samples.map((x) => x.sentWall))).toISOString()}`);
      for (let b = 0; b < 10; b++) {
        const part = samples.slice(b * (COUNT / 10), (b + 1) * (COUNT / 10)).flatMap((s) => (seen.get(s.seq) ? [Math.min(...seen.get(s.seq)!) - s.sentWall] : []));
        console.log(`  [debug] deliveries ${b * 100}–${b * 100 + 99}: ${p(part)}`);
      }
    }
    const latency: number[] = [];
    let lost = 0;
    let duplicates = 0;
    for (const s of samples) {
      const at = seen.get(s.seq);
      if (!at) lost++;
      else {
        latency.push(Math.min(...at) - s.sentWall);
        duplicates += at.length - 1;
      }
    }

    const database = await server.openDatabase();
    let stored: number[] = [];
    let replied: number[] = [];
    let sentReplies = 0;
    const decisions = new Map<string, number>();
    try {
      const counted = ids.slice(0, COUNT);
      const { rows } = await sql<{ id: string; at: Date; replyAt: Date | null; status: string | null; decision: string | null }>`
        select m.external_message_id as id, m.created_at as at, r.created_at as reply_at, r.status, r.ai->>'decision' as decision
        from messages m
        left join lateral (
          select created_at, status, ai from messages r
          where r.conversation_id = m.conversation_id and r.sender_type = 'ai' and r.created_at > m.created_at
          order by r.created_at limit 1
        ) r on true
        where m.external_message_id = any(${counted}::text[])`.execute(database.db);
      const byId = new Map(rows.map((r) => [r.id, r]));
      stored = samples.flatMap((s) => {
        const row = byId.get(ids[s.seq]!);
        return row ? [new Date(row.at).getTime() - s.sentWall] : [];
      });
      replied = samples.flatMap((s) => {
        const row = byId.get(ids[s.seq]!);
        return row?.replyAt ? [new Date(row.replyAt).getTime() - s.sentWall] : [];
      });
      for (const r of rows) {
        if (r.status === 'sent') sentReplies++;
        if (r.decision) decisions.set(r.decision, (decisions.get(r.decision) ?? 0) + 1);
      }
    } finally {
      await database.close();
    }
    return {
      latency,
      acks: samples.flatMap((s) => (s.status === 200 && s.roundTrip !== undefined ? [s.roundTrip] : [])),
      stored,
      replied,
      lost,
      duplicates,
      failed: samples.filter((s) => s.status !== 200).length,
      maxLate: Math.max(...samples.map((s) => s.lateBy)),
      sentReplies,
      decisions,
      serverCpuMs: cpu.serverMs / COUNT,
      postgresCpuMs: cpu.postgresMs / COUNT,
      repliesPerSecond: (COUNT - lost) / ((lastReply - firstSend) / 1000),
    };
  } finally {
    await server.dispose();
  }
}

/** The fake Graph API's own round trip from the bench at the same rate (the floor of the last hop). */
async function fakeRoundTrip(graph: FakeGraphApi): Promise<number[]> {
  const samples = await steadyLoad({
    baseUrl: graph.url,
    rate: RATE,
    count: 300,
    make: () => ({
      method: 'POST',
      path: '/v21.0/0/messages',
      headers: { 'content-type': 'application/json', authorization: 'Bearer x' },
      body: JSON.stringify({ messaging_product: 'whatsapp', to: '1', type: 'text', text: { body: 'baseline' } }),
    }),
  });
  graph.reset();
  return samples.flatMap((s) => (s.roundTrip === undefined ? [] : [s.roundTrip]));
}

async function measureEngine(tree: BuiltTree, report: GroupReporter, engine: EngineName, graph: FakeGraphApi, baseline: string, faq: Faq): Promise<void> {
  graph.reset();
  const run = await measureOutbound(tree, engine, graph, faq);
  const problems = [
    run.lost ? `${run.lost} replies never reached the fake Graph API` : '',
    run.duplicates ? `${run.duplicates} replies sent twice` : '',
    run.failed ? `${run.failed} deliveries not answered 200` : '',
  ].filter(Boolean);
  report.row({
    figure: `Delivery sent → its automatic reply POSTed to the (fake) Graph API, ${engine}, steady ${RATE}/s`,
    measured: `${p(run.latency)} (n=${run.latency.length})`,
    value: percentile(run.latency, 99),
    goal: GOAL,
    baseline,
    verdict: run.lost || run.duplicates || run.failed ? 'ERROR' : undefined,
  });
  report.note(
    `${engine}: from the send, the webhook answered 200 after ${p(run.acks)}; the message row was created (server clock) after ${p(run.stored)}; ` +
      `the agent's reply row after ${p(run.replied)}; the fake Graph API had the POST after ${p(run.latency)}. ` +
      `${num(run.sentReplies)} replies marked sent in the database; the agent's decisions: ${[...run.decisions].map(([d, n]) => `${d} ${num(n)}`).join(', ')}. ` +
      `End to end the server turned deliveries into replies at ${num(run.repliesPerSecond)} per second (first timed send to last reply); ` +
      `each delivery cost ${ms(run.serverCpuMs)} of CPU in the server process` +
      (engine === 'PostgreSQL' ? ` + ${ms(run.postgresCpuMs)} in its PostgreSQL backends` : ' (PGlite runs inside it)') +
      ` (accepting it, its processing job, the AI agent's job, the send job), so ${RATE}/s needs ${num((RATE * run.serverCpuMs) / 10)} % of the one core the server's JavaScript` +
      (engine === 'PGlite' ? ' and PGlite' : '') +
      ` can use: beyond 100 % the queue only grows, and the latency is the time to work through it. ` +
      (problems.length ? ` ${problems.join('; ')}.` : '') +
      ` Sends were at most ${ms(run.maxLate)} behind schedule.`,
  );
}

export const outbound: BenchGroup = {
  id: 'outbound',
  title: 'Receipt to automatic reply',
  method: [
    'The real server (NODE_ENV=production, one process) on a fresh database, GRAPH_API_BASE_URL pointing at a fake Graph API on loopback in the bench process (test/helpers/fake-graph-api.ts, answering like Meta); a WhatsApp channel created with the CLI; the client\'s AI agent switched on with `agents:configure` (embedded engine, response delay 0, escalation off so every message gets a reply) and a knowledge base imported with `kb:import`: BANKING77\'s 77 intents with 20 example questions each; the customers ask BANKING77\'s test questions.',
    `Deliveries: signed WhatsApp envelopes from the shared fixtures (text), from ${CUSTOMERS} customers, open-loop at a steady ${RATE} per second over keep-alive connections: ${WARMUP} warm-up deliveries, then ${COUNT} timed. Latency = the fake Graph API receiving the POST /{phone-number-id}/messages that carries the reply to that delivery − the moment the delivery was sent (both Date.now() on this machine, 1 ms resolution): accept (group commit), processing job (message recorded), the agent's job (answer, reply queued), send job, Graph API request.`,
    'Checked: every timed delivery got exactly one reply at the fake, and the replies are marked sent. Baseline: the fake Graph API’s own round trip from the bench at the same rate — the floor of the last hop.',
  ],
  analysis: [
    'The path is one round trip to the database per step: the processing job records a run of messages with one function call (parley_record_inbound: contacts, conversations, messages, sentiment and priority, the domain events and their subscribers\' jobs, NOTIFY), the jobs it creates are inserted already claimed by this process and run at once with what they need handed over (no claim query, no reload), the agent reads its context with one call (parley_agent_context) and queues its reply with one (parley_send_message), the send job posts to the Graph API over a keep-alive connection and marks the message sent and the job done with one (parley_finish_send). Other instances still see every job in the table and take over a claim whose process died.',
    'On PostgreSQL the figure is the length of that path; on PGlite the database runs inside the server\'s one JavaScript thread, so every statement of every step (and the webhook accepts) queue behind each other: its tail depends on how the steps of neighbouring deliveries interleave, and varies from run to run.',
  ],
  async run(ctx: BenchContext, report: GroupReporter) {
    const tree = await ctx.tree();
    const graph = await startFakeGraphApi();
    try {
      const bare = await fakeRoundTrip(graph);
      const baseline = `fake Graph API round trip at ${RATE}/s: ${p(bare)}`;
      report.progress(baseline);
      const faq = await benchFaq();
      report.progress(`knowledge base: ${faq.source}`);
      if (await ctx.postgres()) await measureEngine(tree, report, 'PostgreSQL', graph, baseline, faq);
      else report.row({ figure: 'Receipt → automatic reply, PostgreSQL', measured: 'PostgreSQL not reachable (see Machine)', verdict: 'skipped' });
      await measureEngine(tree, report, 'PGlite', graph, baseline, faq);
    } finally {
      await graph.close();
    }
  },
};
