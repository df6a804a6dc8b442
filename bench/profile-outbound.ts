/**
 * Investigation helper (not a bench group): the automatic-reply scenario at a steady rate below
 * saturation, with the server under `--cpu-prof`, then the profile's self time summed by function
 * and by file. `npx tsx bench/profile-outbound.ts [PostgreSQL|PGlite] [rate] [count]`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { startFakeGraphApi } from '../test/helpers/fake-graph-api';
import { connectWhatsApp, cpuMeter, enableAgent, type EngineName, settle, startParley } from './lib/parley';
import { sleep } from './lib/stats';
import { steadyLoad } from './lib/steady';
import { prepareTree } from './lib/tree';
import { deliveryFactory } from './lib/whatsapp';

const engine = (process.argv[2] ?? 'PostgreSQL') as EngineName;
const rate = Number(process.argv[3] ?? 30);
const count = Number(process.argv[4] ?? 600);
const env = process.env.PROFILE_ENV ? (JSON.parse(process.env.PROFILE_ENV) as Record<string, string>) : {};
const faq = [
  { questions: ['What are your opening hours?', 'When are you open?', 'What time do you close?'], answer: 'We are open 9:00 to 18:00.' },
  { questions: ['How much is shipping?', 'Is delivery free?', 'What are the delivery fees?'], answer: 'Shipping is free over 50 euros.' },
  { questions: ['How do I get a refund?', 'Can I return my order?', 'What is your refund policy?'], answer: 'Returns are free within 30 days.' },
];
let asked = ['when do you open?', 'do you charge for delivery?', 'I want my money back', 'hello'];
if (process.env.BANKING) {
  const datasets = await import('../eval/datasets');
  const { train, test } = datasets.loadBanking77();
  faq.splice(0, faq.length, ...datasets.toEntries(train).map((e) => ({ questions: e.questions.slice(0, 20), answer: `About ${e.id}` })));
  asked = test.map((e) => e.text);
}

const tree = await prepareTree(path.resolve(import.meta.dirname, '..'));
const graph = await startFakeGraphApi();
const profDir = path.join(tree.dir, 'prof');
const server = await startParley(tree, { engine, env: { ...env, GRAPH_API_BASE_URL: graph.url }, nodeArgs: process.env.PERF ? ['--perf-basic-prof-only-functions'] : process.env.ELU ? [`--import=${path.resolve(import.meta.dirname, '../.tmp/elu.mjs')}`] : process.env.NOPROF ? [] : ['--cpu-prof', '--cpu-prof-interval=500', `--cpu-prof-dir=${profDir}`] });
const userSys = () => {
  const f = fs.readFileSync(`/proc/${server.child.process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return [Number(f[11]) * 10, Number(f[12]) * 10];
};
try {
  const channel = await connectWhatsApp(tree, server);
  await enableAgent(tree, server, channel.clientId, faq);
  await settle(server);
  const next = deliveryFactory({ phoneNumberId: channel.phoneNumberId, appSecret: channel.appSecret, customers: Number(process.env.CUSTOMERS ?? 200), run: Date.now().toString(36), text: (seq) => asked[seq % asked.length]! });
  const make = (seq: number) => {
    const d = next(seq);
    return { method: 'POST' as const, path: '/webhooks/whatsapp', headers: d.headers, body: d.body };
  };
  await steadyLoad({ baseUrl: server.url, rate, count: Number(process.env.WARMUP ?? 100), make: (s) => make(100000 + s) });
  await sleep(2000);
  const { spawn } = await import('node:child_process');
  const pid = String(server.child.process.pid);
  const tracer = process.env.STRACE
    ? spawn('strace', ['-f', '-T', '-e', 'trace=writev,write,sendto', '-p', pid, '-o', '/tmp/strace.txt'], { stdio: 'ignore' })
    : process.env.PERF
      ? spawn('perf', ['record', '-F', '499', '-g', '-p', pid, '-o', '/tmp/perf-server.data'], { stdio: 'ignore' })
      : undefined;
  if (tracer) await sleep(1000);
  if (process.env.PGSS) {
    const pg = (await import('pg')).default;
    const c = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
    await c.connect();
    await c.query('select pg_stat_statements_reset()');
    await c.end();
  }
  const machineCpu = () => { const f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.split(/\s+/).slice(1).map(Number); const idle = f[3]! + f[4]!; return { busy: f.reduce((a, b) => a + b, 0) - idle, total: f.reduce((a, b) => a + b, 0) }; };
  const m0 = machineCpu(); const self0 = process.cpuUsage();
  const meter = cpuMeter(server);
  const us0 = userSys();
  const t0 = Date.now();
  const waIds: string[] = [];
  const timed = await steadyLoad({ baseUrl: server.url, rate, count, make: (seq) => {
    const r = make(seq);
    waIds[seq] = (JSON.parse(r.body) as { entry: { changes: { value: { messages: { from: string }[] } }[] }[] }).entry[0]!.changes[0]!.value.messages[0]!.from;
    return r;
  } });
  const path_ = `/v21.0/${channel.phoneNumberId}/messages`;
  for (let i = 0; i < 300 && graph.requestsTo('POST', path_).length < count + Number(process.env.WARMUP ?? 100); i++) await sleep(100);
  const cpu = meter();
  {
    const sentBy = new Map<string, number[]>();
    for (const t of timed) sentBy.set(waIds[t.seq]!, [...(sentBy.get(waIds[t.seq]!) ?? []), t.sentWall]);
    const lat: { at: number; ms: number }[] = [];
    for (const r of graph.requestsTo('POST', `/v21.0/${channel.phoneNumberId}/messages`)) {
      const sends = sentBy.get((r.body as { to: string }).to) ?? [];
      const sent = Math.max(...sends.filter((x) => x <= r.at));
      if (Number.isFinite(sent)) lat.push({ at: sent, ms: r.at - sent });
    }
    const start = Math.min(...timed.map((t) => t.sentWall));
    for (let sec = 0; sec * 1000 < (count / rate) * 1000; sec++) {
      const xs = lat.filter((l) => l.at >= start + sec * 1000 && l.at < start + (sec + 1) * 1000).map((l) => l.ms).sort((a, b) => a - b);
      if (xs.length) console.log(`  t+${sec}s n=${xs.length} p50 ${xs[Math.floor(xs.length * 0.5)]} p99 ${xs[Math.floor(xs.length * 0.99)]} max ${xs.at(-1)}`);
    }
  }
  if (process.env.PGSS) {
    const pg = (await import('pg')).default;
    const c = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
    await c.connect();
    const { rows } = await c.query(`select calls, round(total_exec_time::numeric, 1) as total_ms, round((total_exec_time / calls)::numeric, 3) as mean_ms, round(total_plan_time::numeric,1) as plan_ms, toplevel, left(regexp_replace(query, '\\s+', ' ', 'g'), 110) as q
      from pg_stat_statements where dbid = (select oid from pg_database where datname = 'parley_bench') order by total_exec_time desc limit 40`);
    for (const r of rows) console.log(`${String(r.calls).padStart(6)} ${String(r.total_ms).padStart(9)} ms ${String(r.mean_ms).padStart(7)} mean ${r.toplevel ? 'top ' : '    '} ${r.q}`);
    await c.end();
  }
  if (process.env.ELU) console.log(server.child.output().split('\n').filter((l) => l.includes('[elu]')).slice(-60).join('\n'));
  const m1 = machineCpu(); const self1 = process.cpuUsage(self0);
  console.log(`machine busy ${(100 * (m1.busy - m0.busy) / (m1.total - m0.total)).toFixed(1)}% of 2 cores; bench process ${((self1.user + self1.system) / 1000 / count).toFixed(2)} ms/delivery`);
  const us1 = userSys();
  console.log(`user ${((us1[0]! - us0[0]!) / count).toFixed(2)} ms/delivery, sys ${((us1[1]! - us0[1]!) / count).toFixed(2)} ms/delivery`);
  if (tracer) {
    tracer.kill('SIGINT');
    await sleep(1000);
  }
  console.log(`${engine} ${rate}/s: ${graph.requestsTo('POST', path_).length} replies; server CPU ${(cpu.serverMs / count).toFixed(2)} ms/delivery, postgres ${(cpu.postgresMs / count).toFixed(2)} ms/delivery; ${((Date.now() - t0) / 1000).toFixed(1)} s`);
} finally {
  await server.stop();
  await graph.close();
}
if (process.env.NOPROF) {
  await server.dispose();
  tree.remove();
  process.exit(0);
}
const file = fs.readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
if (!file) throw new Error('no profile');
const out = `/tmp/outbound-${engine}.cpuprofile`;
fs.copyFileSync(path.join(profDir, file), out);
await server.dispose();
tree.remove();
console.log(`profile: ${out}`);
