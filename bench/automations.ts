/**
 * Automations (issue 13 §8), on the real built server:
 * - Run clicked → the workflow's request received at a loopback receiver (the run job's signed POST);
 * - a step message POSTed by a workflow (its callback, Bearer token) → `automation.message.created`
 *   on the WebSocket of an administrator subscribed to `automation:<id>`;
 * - step messages accepted (stored, 2xx) at a fixed 1,000 per second on PostgreSQL, with autocannon.
 * Beside each, a baseline from the same run: the bare Fastify route at the same rate.
 */
import http from 'node:http';
import path from 'node:path';
import { sql } from 'kysely';
import WebSocket from 'ws';
import type { BenchContext, BenchGroup } from './lib/context';
import { describe, load, loadPrebuilt, type LoadResult, type PrebuiltRequest, rawRequest } from './lib/load';
import { cpuMeter, type EngineName, type ParleyServer, settle, signInAdmin, startParley } from './lib/parley';
import { freePort, LOOPBACK, spawnNode, waitFor200 } from './lib/process';
import type { GroupReporter } from './lib/report';
import { ms, num, percentile, sleep } from './lib/stats';
import { steadyLoad } from './lib/steady';
import type { BuiltTree } from './lib/tree';

const RUN_RATE = 10;
const RUN_COUNT = 200;
const RUN_WARMUP = 20;
const MESSAGE_RATE = 20;
const MESSAGE_COUNT = 300;
const MESSAGE_WARMUP = 40;
const ACCEPT_RATE = 1_000;
const ACCEPT_CONNECTIONS = 20;
const ACCEPT_S = 10;
const ACCEPT_WARMUP_S = 2;
/** Executions the accept load spreads its messages over (one per workflow run calling back). */
const ACCEPT_EXECUTIONS = 20;
const LATENCY_GOAL = { text: 'p95 ≤ 50 ms', max: 50 };
const ACCEPT_RATE_GOAL = { text: '≥ 1,000 messages/s accepted', min: ACCEPT_RATE * 0.98 };
const ACCEPT_P99_GOAL = { text: 'p99 ≤ 25 ms', max: 25 };
const LATE_TIMEOUT_MS = 15_000;

const p = (samples: readonly number[]) => `p50 ${ms(percentile(samples, 50))}, p95 ${ms(percentile(samples, 95))}, p99 ${ms(percentile(samples, 99))}`;

interface Trigger {
  execution_id: string;
  callback: { messages_url: string; status_url: string; token: string };
}

/** The workflow: records when each run's request arrived and its callback details; answers 200. */
async function startReceiver(): Promise<{ url: string; arrivals: Map<string, number>; triggers: Trigger[]; close(): Promise<void> }> {
  const arrivals = new Map<string, number>();
  const triggers: Trigger[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const at = performance.now();
      try {
        const trigger = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Trigger;
        if (!arrivals.has(trigger.execution_id)) arrivals.set(trigger.execution_id, at);
        triggers.push(trigger);
      } catch {
        // not a run
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, LOOPBACK, resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://${LOOPBACK}:${port}/workflow`,
    arrivals,
    triggers,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

async function openAutomation(server: ParleyServer, cookie: string, automationId: string): Promise<{ arrivals: Map<string, number>; close(): void }> {
  const socket = new WebSocket(`${server.url.replace(/^http/u, 'ws')}/api/v1/realtime`, { headers: { cookie, origin: server.url } });
  const arrivals = new Map<string, number>();
  let subscribed: (() => void) | undefined;
  let failed: ((error: Error) => void) | undefined;
  socket.on('message', (raw: Buffer) => {
    const at = performance.now();
    const message = JSON.parse(raw.toString('utf8')) as { type: string; event?: string; topic?: string; data?: { content?: string } };
    if (message.type === 'event' && message.event === 'automation.message.created' && message.data?.content) {
      if (!arrivals.has(message.data.content)) arrivals.set(message.data.content, at);
    } else if (message.type === 'subscribed') {
      subscribed?.();
    } else if (message.type === 'error') {
      failed?.(new Error(`realtime socket: ${JSON.stringify(message)}`));
    }
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  await new Promise<void>((resolve, reject) => {
    subscribed = resolve;
    failed = reject;
    socket.send(JSON.stringify({ type: 'subscribe', id: 'bench', topic: `automation:${automationId}` }));
    setTimeout(() => reject(new Error('no answer to the automation subscription within 10 s')), 10_000);
  });
  return { arrivals, close: () => socket.close() };
}

/** The bare route's round trip at a steady rate, and autocannon at a fixed rate: what any request costs here. */
async function baselines(repoRoot: string): Promise<{ steady: Map<number, number[]>; fixedRate: LoadResult }> {
  const port = await freePort();
  const hello = spawnNode([path.join(repoRoot, 'bench/fixtures/hello-fastify.mjs')], { cwd: repoRoot, env: { PORT: String(port), HOST: LOOPBACK } });
  try {
    const url = `http://${LOOPBACK}:${port}`;
    await waitFor200(`${url}/`, hello, 30_000);
    const steady = new Map<number, number[]>();
    for (const rate of [RUN_RATE, MESSAGE_RATE]) {
      const samples = await steadyLoad({ baseUrl: url, rate, count: RUN_COUNT, make: () => ({ method: 'GET', path: '/' }) });
      steady.set(
        rate,
        samples.flatMap((s) => (s.roundTrip === undefined ? [] : [s.roundTrip])),
      );
    }
    await load({ url: `${url}/`, connections: ACCEPT_CONNECTIONS, durationSeconds: ACCEPT_WARMUP_S, overallRate: ACCEPT_RATE });
    const fixedRate = await load({ url: `${url}/`, connections: ACCEPT_CONNECTIONS, durationSeconds: ACCEPT_S, overallRate: ACCEPT_RATE });
    return { steady, fixedRate };
  } finally {
    await hello.stop();
  }
}

interface EngineRun {
  run: { latency: number[]; acks: number[]; lost: number; failed: number };
  message: { latency: number[]; acks: number[]; lost: number; failed: number };
  accept?: { result: LoadResult; acked: number; refused: Map<number, number>; stored: number; serverCpuMs: number; postgresCpuMs: number };
}

async function measureEngine(tree: BuiltTree, engine: EngineName, withAccept: boolean, report: GroupReporter): Promise<EngineRun> {
  const receiver = await startReceiver();
  // Loopback allowed for the receiver, as an operator allows a LAN host (OUTBOUND_ALLOWED_HOSTS).
  const server = await startParley(tree, { engine, env: { OUTBOUND_ALLOWED_HOSTS: LOOPBACK } });
  try {
    const cookie = await signInAdmin(server);
    const session = { cookie: `${cookie}; parley_csrf=x`, 'x-csrf-token': 'x' };
    const created = await fetch(`${server.url}/api/v1/automations`, {
      method: 'POST',
      headers: { ...session, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bench workflow', workflow_id: 'bench', workflow_url: receiver.url, status: 'active' }),
    });
    const createdText = await created.text();
    if (created.status !== 201) throw new Error(`Creating the automation answered ${created.status}: ${createdText.slice(0, 300)}`);
    const automationId = (JSON.parse(createdText) as { automation: { id: string } }).automation.id;
    await settle(server);

    // 1. Run clicked → the workflow's request received.
    const runRequest = () => ({ method: 'POST' as const, path: `/api/v1/automations/${automationId}/run`, headers: session });
    await steadyLoad({ baseUrl: server.url, rate: RUN_RATE, count: RUN_WARMUP, make: runRequest });
    const runs = await steadyLoad({ baseUrl: server.url, rate: RUN_RATE, count: RUN_COUNT, make: runRequest, keepBody: true });
    const runIds = runs.map((s) => (s.status === 201 && s.body ? (JSON.parse(s.body) as { id: string }).id : undefined));
    const deadline = performance.now() + LATE_TIMEOUT_MS;
    while (performance.now() < deadline && runIds.some((id) => id !== undefined && !receiver.arrivals.has(id))) await sleep(50);
    const runLatency: number[] = [];
    let runLost = 0;
    runs.forEach((s, i) => {
      const id = runIds[i];
      const at = id === undefined ? undefined : receiver.arrivals.get(id);
      if (id === undefined) return;
      if (at === undefined) runLost++;
      else runLatency.push(at - s.sentAt);
    });
    report.progress(`${engine}: Run → request received ${p(runLatency)}`);

    // 2. Step message POSTed → WebSocket event. The messages of one running execution.
    const trigger = receiver.triggers.at(-1)!;
    const socket = await openAutomation(server, cookie, automationId);
    const messagesPath = new URL(trigger.callback.messages_url).pathname;
    const callbackHeaders = { authorization: `Bearer ${trigger.callback.token}`, 'content-type': 'application/json' };
    const runTag = Date.now().toString(36);
    const contents: string[] = [];
    let seq = 0;
    const messageRequest = () => {
      const content = `step ${runTag}-${seq++}`;
      contents.push(content);
      return { method: 'POST' as const, path: messagesPath, headers: callbackHeaders, body: JSON.stringify({ step_name: 'Bench step', message_type: 'info', content, metadata: { n: seq } }) };
    };
    await steadyLoad({ baseUrl: server.url, rate: MESSAGE_RATE, count: MESSAGE_WARMUP, make: messageRequest });
    const first = seq;
    const messages = await steadyLoad({ baseUrl: server.url, rate: MESSAGE_RATE, count: MESSAGE_COUNT, make: messageRequest });
    const timed = contents.slice(first, first + MESSAGE_COUNT);
    const messageDeadline = performance.now() + LATE_TIMEOUT_MS;
    while (performance.now() < messageDeadline && timed.some((c) => !socket.arrivals.has(c))) await sleep(50);
    socket.close();
    const messageLatency: number[] = [];
    let messageLost = 0;
    for (const s of messages) {
      const at = socket.arrivals.get(timed[s.seq]!);
      if (at === undefined) messageLost++;
      else messageLatency.push(at - s.sentAt);
    }
    report.progress(`${engine}: step message → WebSocket ${p(messageLatency)}`);

    const result: EngineRun = {
      run: {
        latency: runLatency,
        acks: runs.flatMap((s) => (s.roundTrip === undefined ? [] : [s.roundTrip])),
        lost: runLost,
        failed: runs.filter((s) => s.status !== 201).length,
      },
      message: {
        latency: messageLatency,
        acks: messages.flatMap((s) => (s.roundTrip === undefined ? [] : [s.roundTrip])),
        lost: messageLost,
        failed: messages.filter((s) => s.status !== 201).length,
      },
    };

    // 3. Step messages accepted at a fixed rate, spread over the running executions of several runs.
    if (withAccept) {
      const targets = receiver.triggers.slice(-ACCEPT_EXECUTIONS).map((t) => ({
        path: new URL(t.callback.messages_url).pathname,
        headers: { authorization: `Bearer ${t.callback.token}`, 'content-type': 'application/json' },
      }));
      let acked = 0;
      const refused = new Map<number, number>();
      let n = 0;
      const url = `${server.url}/`;
      const requestOf = (i: number): PrebuiltRequest => {
        const target = targets[i % targets.length]!;
        const body = JSON.stringify({ step_name: 'Bench accept', message_type: 'debug', content: `accept ${runTag}-${i}`, metadata: { i } });
        return {
          bytes: rawRequest(url, 'POST', target.path, target.headers, body),
          onResponse: (status) => {
            if (status === 201) acked++;
            else refused.set(status, (refused.get(status) ?? 0) + 1);
          },
        };
      };
      const prebuilt = Array.from({ length: Math.ceil(ACCEPT_RATE * (ACCEPT_WARMUP_S + ACCEPT_S) * 1.2) }, (_, i) => requestOf(i));
      const take = () => {
        const request = prebuilt[n] ?? requestOf(n);
        n++;
        return request;
      };
      await loadPrebuilt({ url, connections: ACCEPT_CONNECTIONS, durationSeconds: ACCEPT_WARMUP_S, overallRate: ACCEPT_RATE, next: take });
      const meter = cpuMeter(server);
      const accept = await loadPrebuilt({ url, connections: ACCEPT_CONNECTIONS, durationSeconds: ACCEPT_S, overallRate: ACCEPT_RATE, next: take });
      const cpu = meter();
      report.progress(`${engine}: step messages at ${ACCEPT_RATE}/s: ${describe(accept)}`);
      await server.stop();
      const database = await server.openDatabase();
      try {
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from automation_messages where step_name = 'Bench accept'`.execute(database.db);
        const perMessage = Math.max(1, accept.ok);
        result.accept = { result: accept, acked, refused, stored: rows[0]?.n ?? 0, serverCpuMs: cpu.serverMs / perMessage, postgresCpuMs: cpu.postgresMs / perMessage };
      } finally {
        await database.close();
      }
    }
    return result;
  } finally {
    await server.dispose();
    await receiver.close();
  }
}

function report(engine: EngineName, run: EngineRun, base: Awaited<ReturnType<typeof baselines>>, out: GroupReporter): void {
  const runProblem = run.run.lost || run.run.failed ? `${run.run.lost} requests never arrived, ${run.run.failed} Runs not answered 201` : undefined;
  out.row({
    figure: `Run clicked → workflow request received at a loopback receiver, ${engine}, ${RUN_RATE} Runs/s`,
    measured: `${p(run.run.latency)} (n=${run.run.latency.length})`,
    value: percentile(run.run.latency, 95),
    goal: LATENCY_GOAL,
    baseline: `bare route round trip at ${RUN_RATE}/s: ${p(base.steady.get(RUN_RATE) ?? [])}`,
    verdict: runProblem ? 'ERROR' : undefined,
  });
  out.note(`${engine}: the Run's own 201 came after ${p(run.run.acks)}; the request reached the workflow ${p(run.run.latency)} after the click.${runProblem ? ` ${runProblem}.` : ''}`);
  const messageProblem = run.message.lost || run.message.failed ? `${run.message.lost} events never arrived, ${run.message.failed} messages not answered 201` : undefined;
  out.row({
    figure: `Step message POSTed → automation.message.created on a subscribed WebSocket, ${engine}, ${MESSAGE_RATE} messages/s`,
    measured: `${p(run.message.latency)} (n=${run.message.latency.length})`,
    value: percentile(run.message.latency, 95),
    goal: LATENCY_GOAL,
    baseline: `bare route round trip at ${MESSAGE_RATE}/s: ${p(base.steady.get(MESSAGE_RATE) ?? [])}`,
    verdict: messageProblem ? 'ERROR' : undefined,
  });
  out.note(`${engine}: the callback's own 201 came after ${p(run.message.acks)}; the event reached the socket ${p(run.message.latency)} after the POST.${messageProblem ? ` ${messageProblem}.` : ''}`);
  if (run.accept) {
    const { result, acked, refused, stored, serverCpuMs, postgresCpuMs } = run.accept;
    const problem = stored < acked ? `${acked - stored} acknowledged messages are not stored` : result.ok === 0 ? 'nothing was accepted' : undefined;
    const others = [...refused].map(([status, n]) => `${n} × ${status}`).join(', ');
    out.row({
      figure: `Step messages accepted (stored, 201), ${engine}, fixed ${num(ACCEPT_RATE)}/s over ${ACCEPT_CONNECTIONS} connections`,
      measured: problem ?? `${num(result.rps)} messages/s`,
      value: result.rps,
      goal: ACCEPT_RATE_GOAL,
      baseline: `hello world at the same fixed rate: ${num(base.fixedRate.rps)} req/s`,
      verdict: problem ? 'ERROR' : undefined,
    });
    out.row({
      figure: '↳ latency of those 201s',
      measured: `p50 ${ms(result.p50)}, p90 ${ms(result.p90)}, p99 ${ms(result.p99)}${result.non2xx + result.errors ? `, ${result.non2xx + result.errors} failed` : ''}`,
      value: result.p99,
      goal: ACCEPT_P99_GOAL,
      baseline: `hello world p99 ${ms(base.fixedRate.p99)}`,
      verdict: problem ? 'ERROR' : undefined,
    });
    out.note(
      `${engine}: ${num(acked)} step messages answered 201 (warm-up included), ${num(stored)} stored${others ? `; other answers: ${others}` : ''}. ` +
        `CPU per accepted message during the timed load: ${ms(serverCpuMs)} in the server process + ${ms(postgresCpuMs)} in its PostgreSQL backends ` +
        `(at ${num(ACCEPT_RATE)}/s the server needs ${num((ACCEPT_RATE * serverCpuMs) / 10)} % of a core).`,
    );
  }
}

export const automations: BenchGroup = {
  id: 'automations',
  title: 'Automations: Run, step messages, live events',
  method: [
    'The real server on a fresh database (defaults, LOG_LEVEL=warn, OUTBOUND_ALLOWED_HOSTS=127.0.0.1 for the receiver); the administrator signs in over HTTP and creates an active automation whose workflow URL is a loopback receiver in the bench process (it records when each run’s request arrived, answers 200 and never calls back, so the executions stay running).',
    `Run: POST /api/v1/automations/:id/run with the session, open-loop at ${RUN_RATE}/s (${RUN_WARMUP} warm-up, then ${RUN_COUNT} timed). Latency = arrival at the receiver of the signed request carrying that run’s execution id − the moment the click’s request was sent: the execution row, the run job (queued, NOTIFY, claimed), signing, the guarded client’s address check and the POST.`,
    `Step messages: the workflow’s callback POST /api/v1/automation-executions/:id/messages with the run’s Bearer token, at ${MESSAGE_RATE}/s (${MESSAGE_WARMUP} warm-up, ${MESSAGE_COUNT} timed), while the administrator’s WebSocket is subscribed to \`automation:<id>\` (as the automations screen does). Latency = arrival of the \`automation.message.created\` event with that content − the send.`,
    `Accepted: autocannon at a fixed ${num(ACCEPT_RATE)} requests/s over ${ACCEPT_CONNECTIONS} connections (${ACCEPT_WARMUP_S} s warm-up, ${ACCEPT_S} s timed), each a distinct step message (prebuilt bytes) to one of ${ACCEPT_EXECUTIONS} running executions; PostgreSQL only (the goal's engine). Afterwards the server is stopped and every 201 must be a row of automation_messages.`,
    'Baselines: the bare Fastify hello-world route at the same steady rates (round trip) and under autocannon at the same fixed rate and connections.',
  ],
  async run(ctx: BenchContext, out: GroupReporter) {
    const tree = await ctx.tree();
    const base = await baselines(ctx.repoRoot);
    out.progress(`bare route: ${RUN_RATE}/s ${p(base.steady.get(RUN_RATE)!)}; fixed ${ACCEPT_RATE}/s ${describe(base.fixedRate)}`);
    if (await ctx.postgres()) report('PostgreSQL', await measureEngine(tree, 'PostgreSQL', true, out), base, out);
    else out.row({ figure: 'Automations, PostgreSQL', measured: 'PostgreSQL not reachable (see Machine)', verdict: 'skipped' });
    report('PGlite', await measureEngine(tree, 'PGlite', false, out), base, out);
  },
};
