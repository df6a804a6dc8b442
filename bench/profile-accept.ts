/**
 * Investigation helper (not a bench group): the webhook accept path under autocannon (50
 * connections), optionally web-only, with the server under `--cpu-prof` (PROF=1) — its profile and
 * the CPU used per accepted delivery by the server, PostgreSQL and this process (the load).
 * `npx tsx bench/profile-accept.ts [PostgreSQL|PGlite] [web-only]`
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadPrebuilt, rawRequest } from './lib/load';
import { connectWhatsApp, cpuMeter, type EngineName, settle, startParley } from './lib/parley';
import { prepareTree } from './lib/tree';
import { deliveryFactory } from './lib/whatsapp';

const engine = (process.argv[2] ?? 'PostgreSQL') as EngineName;
const webOnly = process.argv[3] === 'web-only';
const tree = await prepareTree(path.resolve(import.meta.dirname, '..'));
const profDir = path.join(tree.dir, 'prof');
const server = await startParley(tree, {
  engine,
  env: webOnly ? { JOB_CONCURRENCY: '0' } : {},
  nodeArgs: process.env.PERFJIT ? ['--perf-prof', '--interpreted-frames-native-stack'] : process.env.PROF ? ['--cpu-prof', '--cpu-prof-interval=500', `--cpu-prof-dir=${profDir}`] : [],
});
try {
  const channel = await connectWhatsApp(tree, server);
  await settle(server);
  const next = deliveryFactory({ phoneNumberId: channel.phoneNumberId, appSecret: channel.appSecret, customers: 500, run: Date.now().toString(36) });
  let seq = 0;
  const ring = process.env.RING ? Array.from({ length: Number(process.env.RING) }, () => next(seq++)) : null;
  const url = `${server.url}/webhooks/whatsapp`;
  const requestOf = (d: ReturnType<typeof next>) => ({ bytes: rawRequest(url, 'POST', '/webhooks/whatsapp', d.headers, d.body) });
  const prebuilt = ring?.map(requestOf);
  const nextRequest = () => (prebuilt ? prebuilt[seq++ % prebuilt.length]! : requestOf(next(seq++)));
  await loadPrebuilt({ url, connections: 50, durationSeconds: 2, next: nextRequest });
  const userSys = () => {
    const f = fs.readFileSync(`/proc/${server.child.process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return [Number(f[11]) * 10, Number(f[12]) * 10] as const;
  };
  const us0 = userSys();
  const { spawn } = await import('node:child_process');
  const perf = process.env.PERFJIT ? spawn('perf', ['record', '-k', '1', '-F', '499', '-g', '-p', String(server.child.process.pid), '-o', '/tmp/perf-accept.data'], { stdio: 'ignore' }) : undefined;
  const strace = process.env.STRACE ? spawn('strace', ['-c', '-f', '-p', String(server.child.process.pid), '-o', '/tmp/strace-accept.txt'], { stdio: 'ignore' }) : undefined;
  const pgss = async (sqlText: string) => {
    const pg = (await import('pg')).default;
    const c = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
    await c.connect();
    const r = await c.query<Record<string, string | number>>(sqlText);
    await c.end();
    return r.rows;
  };
  if (process.env.PGSS) await pgss('select pg_stat_statements_reset()');
  const meter = cpuMeter(server);
  const self0 = process.cpuUsage();
  const r = await loadPrebuilt({ url, connections: 50, durationSeconds: 10, next: nextRequest });
  const cpu = meter();
  const self = process.cpuUsage(self0);
  const us1 = userSys();
  if (process.env.PGSS) {
    const rows = await pgss(`select calls, rows, round(total_exec_time::numeric,1) as exec_ms, round(total_plan_time::numeric,1) as plan_ms, left(regexp_replace(query, '\\s+', ' ', 'g'), 90) as q
      from pg_stat_statements where dbid = (select oid from pg_database where datname = 'parley_bench') order by total_exec_time + total_plan_time desc limit 8`);
    for (const r of rows) console.log(`${r.calls} calls ${r.rows} rows exec ${r.exec_ms} ms plan ${r.plan_ms} ms ${r.q}`);
  }
  if (strace) {
    strace.kill('SIGINT');
    await new Promise((resolve) => strace.once('exit', resolve));
  }
  if (perf) {
    perf.kill('SIGINT');
    await new Promise((resolve) => perf.once('exit', resolve));
    (await import('node:child_process')).execFileSync('perf', ['inject', '-j', '-i', '/tmp/perf-accept.data', '-o', '/tmp/perf-accept.inj.data']);
  }
  console.log(`server user ${((us1[0] - us0[0]) / r.ok).toFixed(3)} ms, sys ${((us1[1] - us0[1]) / r.ok).toFixed(3)} ms per delivery`);
  console.log(`${engine}${webOnly ? ' web-only' : ''}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50} p99 ${r.p99}; per delivery: server ${(cpu.serverMs / r.ok).toFixed(3)} ms, postgres ${(cpu.postgresMs / r.ok).toFixed(3)} ms, load generator ${((self.user + self.system) / 1000 / r.ok).toFixed(3)} ms`);
} finally {
  await server.stop();
}
const file = process.env.PROF ? fs.readdirSync(profDir).find((f) => f.endsWith('.cpuprofile')) : undefined;
if (file) fs.copyFileSync(path.join(profDir, file), `/tmp/accept-${engine}.cpuprofile`);
await server.dispose();
tree.remove();
