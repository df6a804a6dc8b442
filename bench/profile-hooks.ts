/**
 * Investigation helper (not a bench group): customer messages at a steady rate to a server with one
 * webhook subscription to `message.received` (bench/hooks.ts's latency figure), then where the CPU
 * went: the server process and its PostgreSQL backends per message, the event → received latency
 * per second, and with PGSS=1 the top statements (pg_stat_statements).
 * `npx tsx bench/profile-hooks.ts [PostgreSQL|PGlite] [rate] [count]` (CPU_PROF=<dir>: with a CPU profile).
 */
import http from 'node:http';
import path from 'node:path';
import { connectWhatsApp, cpuMeter, type EngineName, settle, signInAdmin, startParley } from './lib/parley';
import { LOOPBACK } from './lib/process';
import { sleep } from './lib/stats';
import { steadyLoad } from './lib/steady';
import { prepareTree } from './lib/tree';
import { deliveryFactory } from './lib/whatsapp';

const engine = (process.argv[2] ?? 'PostgreSQL') as EngineName;
const rate = Number(process.argv[3] ?? 200);
const count = Number(process.argv[4] ?? 2000);
const received = new Map<string, number>();
const lat: { createdAt: number; ms: number }[] = [];
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const at = performance.timeOrigin + performance.now();
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string; created_at: string };
    if (!received.has(body.id)) {
      received.set(body.id, at);
      lat.push({ createdAt: Date.parse(body.created_at), ms: at - Date.parse(body.created_at) });
    }
    res.writeHead(200).end('{}');
  });
});
await new Promise<void>((resolve) => receiver.listen(0, LOOPBACK, resolve));
const url = `http://${LOOPBACK}:${(receiver.address() as { port: number }).port}/hook`;
const tree = await prepareTree(path.resolve(import.meta.dirname, '..'));
const profDir = process.env.CPU_PROF;
const server = await startParley(tree, {
  engine,
  env: { OUTBOUND_ALLOWED_HOSTS: LOOPBACK, ...(process.env.PROFILE_ENV ? (JSON.parse(process.env.PROFILE_ENV) as Record<string, string>) : {}) },
  // CPU_PROF=<dir>: the server runs under --cpu-prof, its profile written there when it stops.
  nodeArgs: profDir ? ['--cpu-prof', '--cpu-prof-interval=500', `--cpu-prof-dir=${profDir}`] : [],
});
try {
  const channel = await connectWhatsApp(tree, server);
  const cookie = await signInAdmin(server);
  const r = await fetch(`${server.url}/api/v1/webhook-subscriptions`, {
    method: 'POST',
    headers: { cookie: `${cookie}; parley_csrf=x`, 'x-csrf-token': 'x', 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'profile', url, client_id: channel.clientId, events: ['message.received'] }),
  });
  if (r.status !== 201) throw new Error(`subscription: ${r.status} ${await r.text()}`);
  await settle(server);
  const next = deliveryFactory({ phoneNumberId: channel.phoneNumberId, appSecret: channel.appSecret, customers: 100, run: Date.now().toString(36), text: (seq) => `profile #${seq}` });
  const make = (seq: number) => {
    const d = next(seq);
    return { method: 'POST' as const, path: '/webhooks/whatsapp', headers: d.headers, body: d.body };
  };
  await steadyLoad({ baseUrl: server.url, rate, count: 200, make: (s) => make(100000 + s) });
  await settle(server);
  if (process.env.PGSS) {
    const pg = (await import('pg')).default;
    const c = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
    await c.connect();
    await c.query('select pg_stat_statements_reset()');
    await c.end();
  }
  lat.length = 0;
  const meter = cpuMeter(server);
  const t0 = performance.timeOrigin + performance.now();
  await steadyLoad({ baseUrl: server.url, rate, count, make });
  for (let i = 0; i < 600 && received.size < count + 200; i++) await sleep(100);
  const cpu = meter();
  for (let sec = 0; sec < count / rate + 30; sec++) {
    const xs = lat.filter((l) => l.createdAt >= t0 + sec * 1000 && l.createdAt < t0 + (sec + 1) * 1000).map((l) => l.ms).sort((a, b) => a - b);
    if (xs.length) console.log(`  t+${sec}s n=${xs.length} p50 ${xs[Math.floor(xs.length * 0.5)]!.toFixed(0)} p95 ${xs[Math.floor(xs.length * 0.95)]!.toFixed(0)} max ${xs.at(-1)!.toFixed(0)}`);
  }
  if (process.env.PGSS) {
    const pg = (await import('pg')).default;
    const c = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
    await c.connect();
    const { rows } = await c.query(`select calls, round(total_exec_time::numeric, 1) as total_ms, round((total_exec_time / calls)::numeric, 3) as mean_ms, left(regexp_replace(query, '\\s+', ' ', 'g'), 120) as q
      from pg_stat_statements where dbid = (select oid from pg_database where datname = 'parley_bench') and toplevel order by total_exec_time desc limit 25`);
    for (const row of rows) console.log(`${String(row.calls).padStart(6)} ${String(row.total_ms).padStart(9)} ms ${String(row.mean_ms).padStart(7)} mean  ${row.q}`);
    await c.end();
  }
  console.log(`${engine} ${rate}/s: ${received.size} received; server CPU ${(cpu.serverMs / count).toFixed(2)} ms/message, postgres ${(cpu.postgresMs / count).toFixed(2)} ms/message`);
} finally {
  await server.dispose();
  tree.remove();
  receiver.close();
}
