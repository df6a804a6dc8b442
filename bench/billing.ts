/**
 * The month-end invoice run (issue 17 §5): the month's invoices for 10,000 clients on PostgreSQL
 * (goal ≤ 60 s), and webhook deliveries accepted while it runs in the same instance against the
 * same server idle (goal: within 10 %).
 *
 * 10,000 active clients, each with a subscription started before this month, are written with
 * set-based SQL into a migrated database; the real server (the built copy) then runs "Generate this
 * month's invoices now" (`POST /api/v1/billing/runs`, the daily job's code for the current month)
 * as an administrator: once alone (the run's time), then — every invoice and the counters deleted
 * from the bench's own connection — again inside a load of signed WhatsApp deliveries as in the
 * webhook group (three such loads, each paired with an idle load of the same length), the accept
 * rate counted while it runs. `BENCH_BILLING_CLIENTS` (default 10000)
 * changes the number of clients to try the bench out; the goals are checked at 10,000 only.
 */
import fs from 'node:fs';
import { sql } from 'kysely';
import { openDatabase, type Db } from '../server/db/database';
import { migrateToLatest } from '../server/db/migrate';
import { SQL_ROUTINES } from '../server/routines';
import type { BenchContext, BenchGroup } from './lib/context';
import { describe as describeLoad, loadPrebuilt, type LoadResult, type PrebuiltRequest, rawRequest } from './lib/load';
import { connectWhatsApp, cpuMeter, settle, signInAdmin, startParley, type ParleyServer } from './lib/parley';
import { dropBenchDatabase, freshBenchDatabase } from './lib/postgres';
import type { GroupReporter } from './lib/report';
import { num, seconds, sleep } from './lib/stats';
import { tempDir } from './lib/tmp';
import type { BuiltTree } from './lib/tree';
import { deliveryFactory, type Delivery } from './lib/whatsapp';

const CLIENTS = (() => {
  const raw = process.env.BENCH_BILLING_CLIENTS;
  const value = raw === undefined || raw === '' ? 10_000 : Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 100_000) throw new Error(`BENCH_BILLING_CLIENTS must be a whole number from 1 to 100000, not ${raw}`);
  return value;
})();
const FULL_SIZE = CLIENTS === 10_000;
const DATABASE = 'parley_bench_billing';
const RUN_GOAL = { text: '≤ 60 s', max: 60 };
const ACCEPT_GOAL = { text: 'within 10 % of idle (≥ 90 %)', min: 90 };

// As the webhook group: 50 connections, a 2 s warm-up.
const CONNECTIONS = 50;
const WARMUP_S = 2;
/** Deliveries signed before a load (per second of it); more are signed during it if the server is faster. */
const PREBUILT_PER_SECOND = 8_000;
/** Idle and busy loads, in pairs (idle first in odd rounds, busy first in even ones); the row pools them. */
const ROUNDS = 4;


const count = (n: number) => Math.round(n).toLocaleString('en-US');

/** `CLIENTS` active clients with a subscription since two months ago (the three offers in turn). */
async function seed(db: Db): Promise<number> {
  const started = performance.now();
  await db.transaction().execute(async (trx) => {
    await sql`
      with made as (
        insert into clients (company_name, contact_person, email, status, created_at, updated_at)
        select 'Bench Business ' || lpad(k::text, 6, '0'), 'Owner ' || k, 'owner' || k || '@billing.bench.example', 'active',
          now() - interval '400 days', now() - interval '400 days'
        from generate_series(1, ${CLIENTS}::int) k
        returning id
      ),
      numbered as (select id, row_number() over (order by id) as k from made)
      insert into subscriptions (client_id, offer_id, price_minor, currency, started_at)
      select id,
        (array['instagram-dm', 'facebook-leads', 'whatsapp-business'])[1 + k % 3],
        (array[29900, 39900, 49900])[1 + k % 3],
        'USD',
        date_trunc('month', now() at time zone 'UTC') at time zone 'UTC' - interval '2 months'
      from numbered`.execute(trx);
  });
  await sql`analyze clients, subscriptions`.execute(db);
  return performance.now() - started;
}

/** The month's invoices: how many, and whether their numbers are exactly 1…n in each year. */
async function checkInvoices(db: Db): Promise<{ invoices: number; contiguous: boolean }> {
  const { rows } = await sql<{ n: string | number; contiguous: boolean }>`
    select count(*) as n, coalesce(bool_and(number_seq = position), true) as contiguous
    from (select number_seq, row_number() over (partition by number_year order by number_seq) as position from invoices) numbered`.execute(db);
  return { invoices: Number(rows[0]?.n ?? 0), contiguous: rows[0]?.contiguous === true };
}

async function resetInvoices(db: Db): Promise<void> {
  await sql`delete from invoices`.execute(db);
  await sql`delete from invoice_counters`.execute(db);
  await sql`analyze invoices`.execute(db);
}

interface RunResult {
  ms: number;
  created: number;
}

/** "Generate this month's invoices now", as the administrator; its wall time. */
async function runInvoices(server: ParleyServer, cookie: string): Promise<RunResult> {
  const started = performance.now();
  const response = await fetch(`${server.url}/api/v1/billing/runs`, {
    method: 'POST',
    headers: { cookie: `parley_csrf=x; ${cookie}`, 'x-csrf-token': 'x', 'content-type': 'application/json' },
    body: '{}',
    signal: AbortSignal.timeout(15 * 60_000),
  });
  const text = await response.text();
  const elapsed = performance.now() - started;
  if (response.status !== 200) throw new Error(`POST /api/v1/billing/runs answered ${response.status}: ${text.slice(0, 300)}`);
  const body = JSON.parse(text) as { created: number };
  return { ms: elapsed, created: body.created };
}

interface Accepted {
  result: LoadResult;
  /** performance.now() of each 200 answer of the timed load. */
  stamps: number[];
  startedAt: number;
  endedAt: number;
}

/** Signed deliveries at full speed: a warm-up (untimed), then `durationSeconds` timed, each 200 answer's time kept. */
async function accept(server: ParleyServer, next: () => Delivery, durationSeconds: number, warmUpSeconds: number, onTimedStart?: () => void): Promise<Accepted> {
  const url = `${server.url}/webhooks/whatsapp`;
  const stamps: number[] = [];
  let timed = false;
  const requestOf = (delivery: Delivery): PrebuiltRequest => ({
    bytes: rawRequest(url, 'POST', '/webhooks/whatsapp', delivery.headers, delivery.body),
    onResponse: (status) => {
      if (timed && status === 200) stamps.push(performance.now());
    },
  });
  const prebuilt = Array.from({ length: PREBUILT_PER_SECOND * (warmUpSeconds + durationSeconds) }, () => requestOf(next()));
  let sent = 0;
  const nextRequest = () => prebuilt[sent++] ?? requestOf(next());
  if (warmUpSeconds > 0) await loadPrebuilt({ url, connections: CONNECTIONS, durationSeconds: warmUpSeconds, next: nextRequest });
  timed = true;
  const startedAt = performance.now();
  onTimedStart?.();
  const result = await loadPrebuilt({ url, connections: CONNECTIONS, durationSeconds, next: nextRequest });
  return { result, stamps, startedAt, endedAt: performance.now() };
}

/** Deliveries answered 200 per second between `from` and `to`. */
const rateBetween = (stamps: readonly number[], from: number, to: number) => stamps.filter((t) => t >= from && t <= to).length / Math.max(0.001, (to - from) / 1000);

/** Removes the accepted deliveries not yet processed, and their processing jobs: the next load starts without a backlog. */
async function dropBacklog(db: Db): Promise<void> {
  await sql`delete from jobs where name = 'webhooks.process-inbound' and status in ('queued', 'running')`.execute(db);
  await sql`delete from inbound_events where processed_at is null`.execute(db);
  // Vacuumed now, so that neither autovacuum nor the dead rows weigh on the next load.
  await sql`vacuum (analyze) inbound_events, jobs`.execute(db);
}

async function measure(tree: BuiltTree, report: GroupReporter): Promise<void> {
  const databaseUrl = await freshBenchDatabase(DATABASE);
  const dataDir = tempDir('billing');
  // The bench's own connection: seeding, resetting and checking while the server runs (PostgreSQL allows it).
  const own = await openDatabase({ url: databaseUrl, poolSize: 2 });
  let server: ParleyServer | undefined;
  try {
    await migrateToLatest(own.db, { routines: SQL_ROUTINES });
    report.progress(`seeding ${count(CLIENTS)} clients with a subscription…`);
    const seedMs = await seed(own.db);

    server = await startParley(tree, { engine: 'PostgreSQL', existing: { dataDir, databaseUrl }, env: { DEMO_WIDGET: 'false' } });
    const channel = await connectWhatsApp(tree, server);
    const factory = deliveryFactory({ phoneNumberId: channel.phoneNumberId, appSecret: channel.appSecret, customers: 500, run: Date.now().toString(36) });
    let seq = 0;
    const next = () => factory(seq++);
    const cookie = await signInAdmin(server);
    await settle(server);

    // The run alone.
    report.progress('the month-end run, alone…');
    const meter = cpuMeter(server);
    const alone = await runInvoices(server, cookie);
    const cpu = meter();
    const aloneCheck = await checkInvoices(own.db);
    if (alone.created !== CLIENTS || aloneCheck.invoices !== CLIENTS || !aloneCheck.contiguous) {
      throw new Error(`The run issued ${alone.created} invoice(s); ${aloneCheck.invoices} stored, numbers ${aloneCheck.contiguous ? '' : 'not '}contiguous; expected ${CLIENTS}`);
    }

    // Paired loads, ROUNDS times: one idle, one with a run started 1 s into it (every invoice and
    // counter deleted before each pair, the deliveries' backlog dropped after each load). Both last as
    // long, and the idle load's rate is taken over the same seconds of it as the run took in the
    // other, so a load's own drift (a backlog of inbound processing building up) is in both.
    const loadSeconds = Math.ceil(alone.ms / 1000) * 2 + 3;
    const running = server;
    const pairs: { idle: number; during: number; outside: number; window: number; runMs: number; idleResult: LoadResult }[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      report.progress(`accepting idle and during a run, round ${round} of ${ROUNDS}…`);
      await resetInvoices(own.db);
      await dropBacklog(own.db);
      await settle(running);
      const idleLoad = async () => {
        const result = await accept(running, next, loadSeconds, WARMUP_S);
        await dropBacklog(own.db);
        await settle(running);
        return result;
      };
      let runStartedAt = 0;
      let runEndedAt = 0;
      let underLoad: Promise<RunResult> | undefined;
      const busyLoad = async () => {
        const result = await accept(running, next, loadSeconds, WARMUP_S, () => {
          underLoad = (async () => {
            await sleep(1_000);
            runStartedAt = performance.now();
            const run = await runInvoices(running, cookie);
            runEndedAt = performance.now();
            return run;
          })();
          // Awaited below; a failure must not count as unhandled meanwhile.
          underLoad.catch(() => undefined);
        });
        await dropBacklog(own.db);
        await settle(running);
        return result;
      };
      // Idle first in odd rounds, busy first in even ones: the tables' growth over the rounds weighs on both alike.
      const idleFirst = round % 2 === 1;
      const idle = idleFirst ? await idleLoad() : undefined;
      const busy = await busyLoad();
      const idleResult = idle ?? (await idleLoad());
      if (!underLoad) throw new Error('The timed load never started');
      const underLoadRun = await underLoad;
      const windowStart = Math.max(runStartedAt, busy.startedAt);
      const windowEnd = Math.min(runEndedAt, busy.endedAt);
      if (idleResult.result.ok === 0 || busy.result.ok === 0 || windowEnd <= windowStart) throw new Error('A load answered nothing, or the run fell outside it');
      const loadCheck = await checkInvoices(own.db);
      if (underLoadRun.created !== CLIENTS || loadCheck.invoices !== CLIENTS || !loadCheck.contiguous) {
        throw new Error(`Under load the run issued ${underLoadRun.created} invoice(s); ${loadCheck.invoices} stored, numbers ${loadCheck.contiguous ? '' : 'not '}contiguous`);
      }
      const offsetStart = windowStart - busy.startedAt;
      const offsetEnd = windowEnd - busy.startedAt;
      pairs.push({
        idle: rateBetween(idleResult.stamps, idleResult.startedAt + offsetStart, idleResult.startedAt + offsetEnd),
        during: rateBetween(busy.stamps, windowStart, windowEnd),
        outside: busy.stamps.filter((t) => t < windowStart || t > windowEnd).length / Math.max(0.001, (busy.endedAt - busy.startedAt - (windowEnd - windowStart)) / 1000),
        window: windowEnd - windowStart,
        runMs: underLoadRun.ms,
        idleResult: idleResult.result,
      });
    }
    const shares = pairs.map((p) => (p.during / Math.max(1, p.idle)) * 100);
    // Pooled: every pair's answers while the run lasted against those of the same seconds idle.
    const during = pairs.reduce((sum, p) => sum + (p.during * p.window) / 1000, 0);
    const idleSame = pairs.reduce((sum, p) => sum + (p.idle * p.window) / 1000, 0);
    const windowMs = pairs.reduce((sum, p) => sum + p.window, 0);
    const share = (during / Math.max(1, idleSame)) * 100;
    const outside = pairs.reduce((sum, p) => sum + p.outside, 0) / pairs.length;

    const size = `${count(CLIENTS)} clients${FULL_SIZE ? '' : ` (BENCH_BILLING_CLIENTS=${CLIENTS})`}`;
    report.row({
      figure: `Month-end invoice run (\`POST /api/v1/billing/runs\`, the daily job's code), PostgreSQL, ${size}`,
      measured: `${seconds(alone.ms)} for ${count(alone.created)} invoices (${count(alone.created / Math.max(0.001, alone.ms / 1000))}/s); under the delivery load ${pairs.map((p) => seconds(p.runMs)).join(', ')}`,
      value: alone.ms / 1000,
      ...(FULL_SIZE ? { goal: RUN_GOAL } : {}),
    });
    report.row({
      figure: `Webhook deliveries accepted during the month-end run (same instance), PostgreSQL, ${size}, ${CONNECTIONS} connections`,
      measured: `${num(during / (windowMs / 1000))} req/s while the runs lasted (${ROUNDS} runs, ${seconds(windowMs)} in all) = ${num(share)} % of idle (pairs: ${shares.map((x) => `${num(x)} %`).join(', ')}); the rest of those loads ${num(outside)} req/s`,
      value: share,
      ...(FULL_SIZE ? { goal: ACCEPT_GOAL } : {}),
      baseline: `the same seconds of idle loads of the same length: ${num(idleSame / (windowMs / 1000))} req/s (the first whole idle load: ${describeLoad(pairs[0]!.idleResult)})`,
    });
    report.note(
      `Billing, ${size}: seeded in ${seconds(seedMs)}; the run alone used ${seconds(cpu.serverMs)} of the server's CPU and ${seconds(cpu.postgresMs)} of its PostgreSQL backends'. ` +
        `Numbers checked contiguous (1…n) after both runs.`,
    );
  } finally {
    await server?.stop();
    await own.close();
    await dropBenchDatabase(DATABASE);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export const billing: BenchGroup = {
  id: 'billing',
  title: 'Month-end invoice run',
  method: [
    `${count(10_000)} active clients (BENCH_BILLING_CLIENTS changes the number; goals are checked at 10,000 only), each with a subscription to one of the three offers started two months before, written with set-based SQL into a migrated PostgreSQL database (its own, ${DATABASE}, dropped afterwards) and analyzed. The real server (\`node scripts/start.mjs\` in the built copy, DEMO_WIDGET=false) runs "Generate this month's invoices now" (\`POST /api/v1/billing/runs\` as the administrator: the daily \`billing.invoices\` job's code for the current month — batches of 500 clients, each one statement under the year's counter lock); the time is the request's, from the bench. The invoices are checked: one per client, numbers 1…n.`,
    `Accepting during the run: signed WhatsApp deliveries to a channel connected on that server, as in the webhook group (50 connections, prebuilt requests, a 2 s warm-up), in ${ROUNDS} pairs of timed loads as long as each other (twice the run's time alone plus 3 s): one idle and one with a run started 1 s into it, idle first in odd pairs and busy first in even ones, so the tables' growth over the pairs weighs on both alike (every invoice and counter is deleted from the bench's connection before each pair, the deliveries' backlog dropped after each load). Each 200 answer's time is kept: the row's share is the answers that came while the runs lasted against those of the same seconds of the paired idle loads, pooled over the pairs, so a load's own drift over its length counts in both (each pair's share and the busy loads' other answers are given too). A run waits nine times as long as each batch took before the next (INVOICE_RUN_PACE, docs/billing.md). The run is an HTTP request here, so the queue's pause under a delivery burst (which holds back new jobs, the daily run among them) does not spare it: the worst case.`,
    'Goals (issue 17 §5): the run for 10,000 clients ≤ 60 s on PostgreSQL; deliveries accepted during it within 10 % of idle (≥ 90 %).',
  ],
  async run(ctx: BenchContext, report: GroupReporter) {
    if (!(await ctx.postgres())) {
      report.row({ figure: 'Month-end invoice run, PostgreSQL', measured: 'PostgreSQL not reachable (see Machine)', verdict: 'skipped' });
      return;
    }
    await measure(await ctx.tree(), report);
  },
};
