/**
 * Events out (issue 14 §8): public events delivered to outbound webhook subscriptions, on the real
 * built server (`node scripts/start.mjs`, production defaults, LOG_LEVEL=warn,
 * OUTBOUND_ALLOWED_HOSTS=127.0.0.1 so the guarded client lets the loopback receivers through, as an
 * operator allows a LAN host). The receivers are plain `node:http` servers in the bench process;
 * the events are customer messages arriving as signed WhatsApp deliveries (POST /webhooks/whatsapp,
 * bench/lib/whatsapp.ts), each becoming a message — and so a `message.received` event, through the
 * outbox's `events.record` job — and a `hooks.deliver` job per subscription.
 *
 * 1. Latency: deliveries at a steady 200/s (open loop; after a pass at 20/s for context) to one
 *    subscription to `message.received`.
 *    "Committed" is the event's own time, `created_at` of its envelope: the moment the message's
 *    transaction published the domain event (a few ms before its COMMIT, so the figure is, if
 *    anything, a little long); "received" is when the receiver read the whole POST. Both are
 *    wall-clock times on this machine. After the run the server is stopped and the database read to
 *    split each delivery: event → `events.record` ran (the delivery row's created_at, the start of
 *    that job's transaction) → the POST started (the attempt's attempted_at − its duration) → received.
 *    Baseline: the same receiver POSTed directly from the bench process at the same rate (the floor:
 *    what one loopback POST costs here).
 * 2. Fan-out: 1,000 active subscriptions to `message.received` of the client (4 receiver servers,
 *    250 paths each), then one customer message: time from the event's created_at to the 1,000th
 *    delivery received (3 events, one after the other). Baseline: 1,000 direct POSTs of the same
 *    body from the bench process to the same 1,000 URLs, 8 at a time (the server's default
 *    JOB_CONCURRENCY, i.e. at most 8 deliveries in flight).
 * 3. Receiver down, then back: on a fresh server, one subscription whose receiver answers 503 (no
 *    Retry-After) for DOWN_S seconds (default 300 — real time, no clock is compressed; set
 *    BENCH_HOOKS_DOWN_S to shorten it for a try-out, the row then says so) while one customer
 *    message arrives per second from 10 customers in turn (so the per-conversation ordering is in
 *    play); then it answers 200 and no more messages come. The bench waits until every event
 *    stored in `events` was received with a 200 (or CATCH_UP_TIMEOUT), then 10 s more for
 *    duplicates. Reported: events lost (stored but never answered 200), distinct events delivered,
 *    events answered 200 more than once, attempts made during the outage, and the catch-up time
 *    (recovery → the last event answered 200). Catch-up is set by the first retry that comes due
 *    after recovery (each conversation's oldest delivery retries on its own backoff, 10 s doubling,
 *    ±20 % jitter): its success brings every other waiting retry of the subscription forward
 *    (docs/webhooks.md, "Catch-up"), and the later deliveries of each conversation follow in order.
 * Figures 1 and 2 run on PostgreSQL (the goals' engine) and PGlite; figure 3 on PostgreSQL only
 * (PGlite when no PostgreSQL server is reachable).
 */
import http from 'node:http';
import { sql } from 'kysely';
import type { BenchContext, BenchGroup } from './lib/context';
import { connectWhatsApp, type EngineName, type ParleyServer, settle, signInAdmin, startParley, type WhatsAppChannel } from './lib/parley';
import { LOOPBACK } from './lib/process';
import type { GroupReporter } from './lib/report';
import { median, ms, num, percentile, seconds, sleep } from './lib/stats';
import { steadyLoad } from './lib/steady';
import type { BuiltTree } from './lib/tree';
import { deliveryFactory } from './lib/whatsapp';

const RATE = 200;
const WARMUP = 400;
const COUNT = 2_000;
const CUSTOMERS = 100;
/** Context for the figure: a rate the queue keeps up with. */
const LOW_RATE = 20;
const LOW_WARMUP = 40;
const LOW_COUNT = 300;
const LATENCY_GOAL = { text: 'p95 ≤ 100 ms', max: 100 };
const FANOUT = 1_000;
const FANOUT_RECEIVERS = 4;
const FANOUT_EVENTS = 3;
const FANOUT_CONCURRENCY = 8;
const FANOUT_GOAL = { text: '≤ 5 s', max: 5_000 };
const DOWN_S = Number(process.env.BENCH_HOOKS_DOWN_S ?? 300);
const DOWN_CUSTOMERS = 10;
/** The longest the bench waits for the backlog after recovery. */
const CATCH_UP_TIMEOUT_MS = Math.max(120_000, DOWN_S * 1.5 * 1000);
const LATE_TIMEOUT_MS = 120_000;

const int = (n: number): string => num(n, 0);
const wallNow = (): number => performance.timeOrigin + performance.now();
const p = (samples: readonly number[]) => `p50 ${ms(percentile(samples, 50))}, p95 ${ms(percentile(samples, 95))}, p99 ${ms(percentile(samples, 99))}`;

interface Received {
  path: string;
  eventId: string;
  deliveryId: string;
  type: string;
  createdAt: number;
  content: string;
  at: number;
  status: number;
}

interface Receiver {
  url: string;
  received: Received[];
  /** The status answered from now on. */
  answer: number;
  close(): Promise<void>;
}

/** A loopback endpoint that records every POST (wall time when its body was read) and answers `answer`. */
async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = { url: '', received: [], answer: 200, close: async () => undefined };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const at = wallNow();
      const status = receiver.answer;
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type?: string; created_at?: string; data?: { message?: { content?: string } } };
        receiver.received.push({
          path: req.url ?? '/',
          eventId: String(req.headers['x-parley-event-id'] ?? ''),
          deliveryId: String(req.headers['x-parley-delivery-id'] ?? ''),
          type: body.type ?? '',
          createdAt: Date.parse(body.created_at ?? ''),
          content: body.data?.message?.content ?? '',
          at,
          status,
        });
      } catch {
        // not an event
      }
      res.writeHead(status, { 'content-type': 'application/json' }).end(status === 200 ? '{"ok":true}' : '{"error":"down"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, LOOPBACK, resolve));
  const { port } = server.address() as { port: number };
  receiver.url = `http://${LOOPBACK}:${port}`;
  receiver.close = () => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  };
  return receiver;
}

interface Admin {
  headers: Record<string, string>;
}

async function api(server: ParleyServer, admin: Admin, method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { ...admin.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`);
  return text ? (JSON.parse(text) as unknown) : undefined;
}

async function subscribe(server: ParleyServer, admin: Admin, channel: WhatsAppChannel, name: string, url: string): Promise<string> {
  const created = (await api(server, admin, 'POST', '/api/v1/webhook-subscriptions', { name, url, client_id: channel.clientId, events: ['message.received'] })) as {
    subscription: { id: string };
  };
  return created.subscription.id;
}

async function setup(tree: BuiltTree, engine: EngineName): Promise<{ server: ParleyServer; admin: Admin; channel: WhatsAppChannel }> {
  const server = await startParley(tree, { engine, env: { OUTBOUND_ALLOWED_HOSTS: LOOPBACK } });
  try {
    const channel = await connectWhatsApp(tree, server);
    const cookie = await signInAdmin(server);
    return { server, admin: { headers: { cookie: `${cookie}; parley_csrf=x`, 'x-csrf-token': 'x' } }, channel };
  } catch (error) {
    await server.dispose();
    throw error;
  }
}

/** Customer messages as signed WhatsApp deliveries, each text tagged with its number. */
function messages(channel: WhatsAppChannel, customers: number, tag: string) {
  return deliveryFactory({ phoneNumberId: channel.phoneNumberId, appSecret: channel.appSecret, customers, run: tag, text: (seq) => `hooks bench ${tag} #${seq}` });
}

function deliveryRequest(delivery: { body: string; headers: Record<string, string> }) {
  return { method: 'POST' as const, path: '/webhooks/whatsapp', headers: delivery.headers, body: delivery.body };
}

async function until(check: () => boolean, timeoutMs: number, stepMs = 20): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > deadline) return false;
    await sleep(stepMs);
  }
  return true;
}

interface LatencyRun {
  latency: number[];
  lost: number;
  refused: number;
  breakdown?: { toRecord: number[]; toPost: number[]; post: number[] };
}

interface FanOutRun {
  /** Event → last of the 1,000 received, per event. */
  total: number[];
  /** Event → first received. */
  first: number[];
  missing: number;
  baseline: number[];
}

async function directPosts(urls: readonly string[], body: string, concurrency: number): Promise<number> {
  const started = performance.now();
  let next = 0;
  const agent = new http.Agent({ keepAlive: false });
  const post = (url: string) =>
    new Promise<void>((resolve, reject) => {
      const req = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
        res.resume();
        res.once('end', () => resolve());
      });
      req.once('error', reject);
      req.end(body);
    });
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < urls.length) await post(urls[next++]!);
    }),
  );
  agent.destroy();
  return performance.now() - started;
}

async function measureLatencyAndFanOut(
  tree: BuiltTree,
  engine: EngineName,
  report: GroupReporter,
): Promise<{ latency: LatencyRun; low: LatencyRun; fanOut: FanOutRun; direct: number[] }> {
  const receiver = await startReceiver();
  const fanReceivers = await Promise.all(Array.from({ length: FANOUT_RECEIVERS }, () => startReceiver()));
  const { server, admin, channel } = await setup(tree, engine);
  try {
    const subscriptionId = await subscribe(server, admin, channel, 'Bench latency', `${receiver.url}/latency`);
    await settle(server);

    // 1. Latency at a steady rate: first at a low rate (what one delivery costs when the queue keeps up), then the goal's.
    const tag = Date.now().toString(36);
    const next = messages(channel, CUSTOMERS, tag);
    const seqOf = (r: Received) => Number(/#(\d+)$/u.exec(r.content)?.[1] ?? -1);
    const firstOf = new Map<number, Received>();
    let offset = 0;
    const timedRun = async (rate: number, warmup: number, count: number) => {
      const base = offset;
      offset += warmup + count;
      await steadyLoad({ baseUrl: server.url, rate, count: warmup, make: (seq) => deliveryRequest(next(base + seq)) });
      const timed = await steadyLoad({ baseUrl: server.url, rate, count, make: (seq) => deliveryRequest(next(base + warmup + seq)) });
      const acked = new Set(timed.filter((s) => s.status === 200).map((s) => base + warmup + s.seq));
      let scanned = 0;
      await until(() => {
        for (; scanned < receiver.received.length; scanned++) {
          const r = receiver.received[scanned]!;
          if (!firstOf.has(seqOf(r))) firstOf.set(seqOf(r), r);
        }
        return [...acked].every((seq) => firstOf.has(seq));
      }, LATE_TIMEOUT_MS);
      const latency: number[] = [];
      let lost = 0;
      for (const seq of acked) {
        const r = firstOf.get(seq);
        if (!r) lost++;
        else latency.push(r.at - r.createdAt);
      }
      report.progress(`${engine}: ${rate}/s: event → first attempt received ${p(latency)} (n=${latency.length}, ${lost} not received)`);
      const run: LatencyRun = { latency, lost, refused: count - acked.size };
      return { run, acked };
    };
    const { run: low, acked: lowAcked } = await timedRun(LOW_RATE, LOW_WARMUP, LOW_COUNT);
    await settle(server, 60_000);
    const { run: latencyRun, acked } = await timedRun(RATE, WARMUP, COUNT);

    // Baseline: the same receiver, POSTed directly at the same rate.
    const direct = await steadyLoad({
      baseUrl: receiver.url,
      rate: RATE,
      count: COUNT,
      make: () => ({ method: 'POST', path: '/direct', headers: { 'content-type': 'application/json' }, body: '{"type":"direct"}' }),
    });
    const directTrips = direct.flatMap((s) => (s.roundTrip === undefined ? [] : [s.roundTrip]));

    // 2. Fan-out: the latency subscription paused, 1,000 others.
    await api(server, admin, 'PATCH', `/api/v1/webhook-subscriptions/${subscriptionId}`, { status: 'inactive' });
    const urls = Array.from({ length: FANOUT }, (_, i) => `${fanReceivers[i % FANOUT_RECEIVERS]!.url}/hook/${i}`);
    for (let i = 0; i < urls.length; i += 20) {
      await Promise.all(urls.slice(i, i + 20).map((url, j) => subscribe(server, admin, channel, `Bench fan-out ${i + j}`, url)));
    }
    report.progress(`${engine}: ${FANOUT} subscriptions created`);
    await settle(server);
    const fanTag = `${tag}f`;
    const fanNext = messages(channel, FANOUT_EVENTS, fanTag);
    const total: number[] = [];
    const first: number[] = [];
    let missing = 0;
    let sampleBody = '{}';
    for (let e = 0; e < FANOUT_EVENTS; e++) {
      const delivery = fanNext(e);
      const response = await fetch(`${server.url}/webhooks/whatsapp`, { method: 'POST', headers: delivery.headers, body: delivery.body });
      await response.text();
      if (response.status !== 200) throw new Error(`The fan-out message was answered ${response.status}`);
      const mine = () => fanReceivers.flatMap((r) => r.received.filter((x) => x.content === `hooks bench ${fanTag} #${e}`));
      await until(() => new Set(mine().map((x) => x.path)).size >= FANOUT, 120_000, 10);
      const got = mine();
      const paths = new Set(got.map((x) => x.path));
      missing += FANOUT - paths.size;
      const createdAt = got[0]?.createdAt ?? Number.NaN;
      total.push(Math.max(...got.map((x) => x.at)) - createdAt);
      first.push(Math.min(...got.map((x) => x.at)) - createdAt);
      report.progress(`${engine}: fan-out event ${e + 1}: ${paths.size} received, the last ${ms(total.at(-1)!)} after the event`);
      sampleBody = JSON.stringify({ type: 'message.received', sample: got[0]?.content ?? '' }).padEnd(2_000, ' ');
      await settle(server, 30_000);
    }
    const baseline: number[] = [];
    for (let e = 0; e < FANOUT_EVENTS; e++) baseline.push(await directPosts(urls, sampleBody, FANOUT_CONCURRENCY));

    // Where the latency went: the database's times of the timed deliveries.
    await server.stop();
    const database = await server.openDatabase();
    try {
      const { rows } = await sql<{ created: Date; attempted: Date; duration: number; body: string }>`
        select d.created_at as created, a.attempted_at as attempted, a.duration_ms as duration, d.body
        from webhook_deliveries d join webhook_delivery_attempts a on a.delivery_id = d.id
        where d.subscription_id = ${subscriptionId}`.execute(database.db);
      const byEvent = new Map<string, Received>();
      for (const r of receiver.received) if (!byEvent.has(r.eventId)) byEvent.set(r.eventId, r);
      const split = (seqs: ReadonlySet<number>): NonNullable<LatencyRun['breakdown']> => {
        const toRecord: number[] = [];
        const toPost: number[] = [];
        const post: number[] = [];
        for (const row of rows) {
          const envelope = JSON.parse(row.body) as { id: string; created_at: string; data?: { message?: { content?: string } } };
          const seq = Number(/#(\d+)$/u.exec(envelope.data?.message?.content ?? '')?.[1] ?? -1);
          if (!seqs.has(seq)) continue;
          const at = Date.parse(envelope.created_at);
          const recorded = new Date(row.created).getTime();
          const postStart = new Date(row.attempted).getTime() - Number(row.duration);
          toRecord.push(recorded - at);
          toPost.push(postStart - recorded);
          const received = byEvent.get(envelope.id);
          if (received) post.push(received.at - postStart);
        }
        return { toRecord, toPost, post };
      };
      latencyRun.breakdown = split(acked);
      low.breakdown = split(lowAcked);
    } finally {
      await database.close();
    }
    return { latency: latencyRun, low, fanOut: { total, first, missing, baseline }, direct: directTrips };
  } finally {
    await server.dispose();
    await receiver.close();
    await Promise.all(fanReceivers.map((r) => r.close()));
  }
}

interface OutageRun {
  sent: number;
  acked: number;
  stored: number;
  delivered: number;
  duplicates: number;
  lost: number;
  attemptsDown: number;
  catchUpMs: number | undefined;
  caughtUp: boolean;
}

async function measureOutage(tree: BuiltTree, engine: EngineName, report: GroupReporter): Promise<OutageRun> {
  const receiver = await startReceiver();
  receiver.answer = 503;
  const { server, admin, channel } = await setup(tree, engine);
  try {
    await subscribe(server, admin, channel, 'Bench outage', `${receiver.url}/outage`);
    await settle(server);
    const tag = `${Date.now().toString(36)}o`;
    const next = messages(channel, DOWN_CUSTOMERS, tag);
    const sends = await steadyLoad({ baseUrl: server.url, rate: 1, count: DOWN_S, make: (seq) => deliveryRequest(next(seq)) });
    const acked = sends.filter((s) => s.status === 200).length;
    // The outage lasts DOWN_S from its first message (steadyLoad waits for the last answer).
    receiver.answer = 200;
    const recoveredAt = wallNow();
    const attemptsDown = receiver.received.filter((r) => r.status !== 200).length;
    report.progress(`${engine}: receiver back after ${DOWN_S} s; ${attemptsDown} attempts answered 503 meanwhile`);
    const okIds = () => new Set(receiver.received.filter((r) => r.status === 200 && r.type === 'message.received').map((r) => r.eventId));
    const caughtUp = await until(() => okIds().size >= acked, CATCH_UP_TIMEOUT_MS, 100);
    const ok = receiver.received.filter((r) => r.status === 200 && r.type === 'message.received');
    const catchUpMs = ok.length ? Math.max(...ok.map((r) => r.at)) - recoveredAt : undefined;
    await sleep(10_000); // anything sent twice would arrive now
    await server.stop();
    const database = await server.openDatabase();
    let storedIds: string[];
    try {
      const { rows } = await sql<{ id: string }>`select id from events where type = 'message.received' and client_id = ${channel.clientId}`.execute(database.db);
      storedIds = rows.map((r) => r.id);
    } finally {
      await database.close();
    }
    const final = receiver.received.filter((r) => r.status === 200 && r.type === 'message.received');
    const counts = new Map<string, number>();
    for (const r of final) counts.set(r.eventId, (counts.get(r.eventId) ?? 0) + 1);
    return {
      sent: sends.length,
      acked,
      stored: storedIds.length,
      delivered: counts.size,
      duplicates: [...counts.values()].filter((n) => n > 1).length,
      lost: storedIds.filter((id) => !counts.has(id)).length,
      attemptsDown,
      catchUpMs,
      caughtUp,
    };
  } finally {
    await server.dispose();
    await receiver.close();
  }
}

function reportLatencyAndFanOut(engine: EngineName, run: Awaited<ReturnType<typeof measureLatencyAndFanOut>>, out: GroupReporter): void {
  const { latency, fanOut, direct } = run;
  const problem = latency.latency.length === 0 ? 'nothing arrived' : undefined;
  // Not received within LATE_TIMEOUT_MS after the load: late, counted as that long (the pipeline fell behind).
  const late = latency.lost;
  const all = [...latency.latency, ...Array.from({ length: late }, () => LATE_TIMEOUT_MS)];
  out.row({
    figure: `Event committed → first delivery attempt received at a loopback receiver, ${engine}, ${RATE} messages/s`,
    measured:
      problem ??
      (late
        ? `${int(late)} of ${int(all.length)} not received within ${seconds(LATE_TIMEOUT_MS)} after the load (counted as that long): ${p(all)}`
        : `${p(latency.latency)} (n=${latency.latency.length})`),
    value: percentile(all, 95),
    goal: LATENCY_GOAL,
    baseline: `a direct loopback POST to the same receiver at ${RATE}/s: ${p(direct)}`,
    verdict: problem ? 'ERROR' : undefined,
  });
  out.row({
    figure: `↳ the same at ${LOW_RATE} messages/s (context: a tenth of the rate)`,
    measured: run.low.latency.length ? `${p(run.low.latency)} (n=${run.low.latency.length}${run.low.lost ? `, ${run.low.lost} not received within ${seconds(LATE_TIMEOUT_MS)}` : ''})` : 'nothing arrived',
    baseline: `direct POST at ${RATE}/s: ${p(direct)}`,
  });
  const lb = run.low.breakdown;
  if (lb) {
    out.note(
      `${engine}, ${LOW_RATE}/s (medians / p95): event → \`events.record\` stored it ${ms(median(lb.toRecord))} / ${ms(percentile(lb.toRecord, 95))}; → \`hooks.deliver\` started its POST ${ms(median(lb.toPost))} / ${ms(percentile(lb.toPost, 95))}; the POST ${ms(median(lb.post))} / ${ms(percentile(lb.post, 95))}.`,
    );
  }
  const b = latency.breakdown;
  if (b) {
    out.note(
      `${engine}: where the time goes (medians / p95 of the timed deliveries, from the database's times): event → its \`events.record\` job stored it and queued the delivery ${ms(median(b.toRecord))} / ${ms(percentile(b.toRecord, 95))}; ` +
        `→ the \`hooks.deliver\` job started its POST ${ms(median(b.toPost))} / ${ms(percentile(b.toPost, 95))}; the POST itself until the receiver had read it ${ms(median(b.post))} / ${ms(percentile(b.post, 95))} ` +
        `(the direct POST baseline: ${ms(median(direct))} / ${ms(percentile(direct, 95))}). ` +
        (percentile(b.toRecord, 95) + percentile(b.toPost, 95) > 10 * percentile(b.post, 95)
          ? `Waiting for the two jobs (\`events.record\` and its batch, then \`hooks.deliver\`) is the bulk${percentile(all, 95) > 1_000 ? ' — seconds of it, i.e. the server fell behind the 200 messages/s (each message is also an inbound processing job, the AI agent\'s job and 1–3 `events.record` jobs), a backlog rather than the cost of one delivery' : ''}; the POST itself is near the baseline.`
          : 'The POST is a large share.') +
        (latency.refused ? ` ${latency.refused} WhatsApp deliveries were not answered 200.` : ''),
    );
  }
  const fanProblem = fanOut.missing ? `${fanOut.missing} deliveries never arrived` : undefined;
  out.row({
    figure: `Fan-out: one event → ${num(FANOUT)} subscriptions, the last delivery received, ${engine}`,
    measured: fanProblem ?? `${seconds(median(fanOut.total))} (${fanOut.total.map((t) => num(t / 1000, 2)).join(', ')} s; first after ${ms(median(fanOut.first))})`,
    value: median(fanOut.total),
    goal: FANOUT_GOAL,
    baseline: `${num(FANOUT)} direct POSTs, ${FANOUT_CONCURRENCY} at a time: ${seconds(median(fanOut.baseline))}`,
    verdict: fanProblem ? 'ERROR' : undefined,
  });
}

function reportOutage(engine: EngineName, run: OutageRun, out: GroupReporter): void {
  const problem = run.lost > 0 || run.duplicates > 0 || run.stored < run.acked || !run.caughtUp;
  const compressed = DOWN_S !== 300 ? ` (BENCH_HOOKS_DOWN_S=${DOWN_S}: NOT the issue's 5 minutes)` : '';
  out.row({
    figure: `Receiver down ${int(DOWN_S)} s (503) then back, 1 message/s meanwhile, ${engine}${compressed}`,
    measured:
      `${int(run.lost)} lost, ${int(run.duplicates)} delivered twice; ${int(run.delivered)} of ${int(run.stored)} events delivered; ` +
      (run.catchUpMs === undefined ? 'nothing delivered' : `catch-up ${seconds(run.catchUpMs)}${run.caughtUp ? '' : ' (TIMED OUT)'}`),
    value: run.lost + run.duplicates + (run.caughtUp ? 0 : 1),
    goal: { text: '0 lost, each delivered once', max: 0 },
    baseline: `retry policy: 10 s doubling to 1 h, ±20 %; ${int(run.attemptsDown)} attempts answered 503 during the outage`,
    verdict: run.stored < run.acked ? 'ERROR' : undefined,
  });
  out.note(
    `${engine}, outage: ${int(run.sent)} messages sent, ${int(run.acked)} answered 200, ${int(run.stored)} message.received events stored, ${int(run.delivered)} distinct events answered 200 by the receiver after recovery, ` +
      `${int(run.duplicates)} of them more than once. Catch-up (recovery → last event answered 200): ${run.catchUpMs === undefined ? '–' : seconds(run.catchUpMs)}${run.caughtUp ? '' : ` — the bench stopped waiting after ${seconds(CATCH_UP_TIMEOUT_MS)}`}. ` +
      'It is set by the first retry due after recovery (each conversation’s oldest waiting delivery retries on its own schedule: 10, 20, 40, 80, 160, 320 s… ±20 %): its success brings every other waiting retry of the subscription forward, and the later deliveries of each conversation follow in order — so the catch-up is where the earliest schedule stands at recovery, not the backlog’s size.' +
      (problem ? ' NOT every event was delivered exactly once.' : ''),
  );
}

export const hooks: BenchGroup = {
  id: 'hooks',
  title: 'Events out: outbound webhook deliveries',
  method: [
    'The real server (`node scripts/start.mjs` in the built copy, production defaults: JOB_CONCURRENCY=8; LOG_LEVEL=warn; OUTBOUND_ALLOWED_HOSTS=127.0.0.1 so the guarded client lets the loopback receivers through) on a fresh database; a client and a WhatsApp channel made with the CLI; subscriptions to `message.received` of that client created by the administrator over HTTP (`POST /api/v1/webhook-subscriptions`). Receivers: `node:http` servers in the bench process that record each POST (wall time when the body was read, the event id and type) and answer 200 (or 503 while "down"). Events: customer messages as signed WhatsApp deliveries (POST /webhooks/whatsapp), each a distinct text.',
    `Latency: open loop at ${RATE} messages/s from ${CUSTOMERS} customers (${WARMUP} warm-up, ${num(COUNT)} timed), after a first pass at ${LOW_RATE}/s (${LOW_WARMUP} + ${LOW_COUNT}, reported as context: what one delivery costs while the queue keeps up). An event not received within ${LATE_TIMEOUT_MS / 1000} s after the load counts as that long (the queue fell behind). Committed = the event envelope's \`created_at\` (the time the message's transaction published it, a few ms before its COMMIT); received = the receiver's wall time; p50/p95/p99 over the first attempt of each timed message's event. Afterwards the server is stopped and the delivery rows and attempts read to split each one: event → \`events.record\` job stored it and queued the delivery (delivery created_at) → \`hooks.deliver\` started the POST (attempted_at − duration) → received. Baseline: the same receiver POSTed directly from the bench process at the same rate (round trip) — the floor a delivery cannot beat; the note says which step takes the rest.`,
    `Fan-out: that subscription paused, ${num(FANOUT)} more (${FANOUT_RECEIVERS} receiver servers, distinct paths), then one message at a time (${FANOUT_EVENTS} in all, the server idle between them): event created_at → the ${num(FANOUT)}th delivery received; the row gives the median. Baseline: ${num(FANOUT)} direct POSTs of a 2 KB body to the same URLs from the bench process, ${FANOUT_CONCURRENCY} at a time (the server runs at most JOB_CONCURRENCY=8 deliveries at once), new connections as the guarded client makes.`,
    `Outage: a fresh server, one subscription whose receiver answers 503 (no Retry-After) for ${int(DOWN_S)} s — real time, nothing compressed (BENCH_HOOKS_DOWN_S shortens it for a try-out; the row then says so) — while one message per second arrives from ${DOWN_CUSTOMERS} customers in turn; then 200, and no more messages. The bench waits until every acknowledged message's event was answered 200 (at most ${seconds(CATCH_UP_TIMEOUT_MS)}), 10 s more, stops the server and compares with the \`message.received\` events stored: lost = stored but never answered 200; duplicates = events answered 200 more than once (by X-Parley-Event-Id); catch-up = recovery → the last 200. PostgreSQL only (PGlite when there is no PostgreSQL). This part takes about ${Math.round(DOWN_S / 60)} minutes plus the catch-up.`,
  ],
  async run(ctx: BenchContext, out: GroupReporter) {
    const tree = await ctx.tree();
    const postgres = await ctx.postgres();
    if (postgres) reportLatencyAndFanOut('PostgreSQL', await measureLatencyAndFanOut(tree, 'PostgreSQL', out), out);
    else out.row({ figure: 'Events out, PostgreSQL', measured: 'PostgreSQL not reachable (see Machine)', verdict: 'skipped' });
    reportLatencyAndFanOut('PGlite', await measureLatencyAndFanOut(tree, 'PGlite', out), out);
    const engine: EngineName = postgres ? 'PostgreSQL' : 'PGlite';
    reportOutage(engine, await measureOutage(tree, engine, out), out);
  },
};
