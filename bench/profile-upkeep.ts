/**
 * Investigation helper (not a bench group): what the service-level upkeep costs per WhatsApp
 * delivery, by statement. Steady signed deliveries (100/s from 500 customers, no AI agent) into
 * one server on a fresh PostgreSQL database, with the upkeep on and off (INSIGHTS_UPKEEP)
 * alternately, each load settled; the CPU of the server and its backends per delivery and, with
 * pg_stat_statements loaded (PGSS=1, `pg_stat_statements.track = all`), the statements that took
 * the most time in each load.
 * HISTORY=N first seeds N conversations over 12 months (bench/insights.ts) and backfills their rows.
 * `npx tsx bench/profile-upkeep.ts [pairs] [count]`
 */
import fs from 'node:fs';
import path from 'node:path';
import { connectWhatsApp, cpuMeter, settle, startParley } from './lib/parley';
import { sql } from 'kysely';
import { openDatabase } from '../server/db/database';
import { createMigrator, migrateToLatest } from '../server/db/migrate';
import { SQL_ROUTINES } from '../server/routines';
import { seedHistory } from './insights';
import { dropBenchDatabase, freshBenchDatabase } from './lib/postgres';
import { tempDir } from './lib/tmp';
import { steadyLoad } from './lib/steady';
import { prepareTree } from './lib/tree';
import { deliveryFactory } from './lib/whatsapp';

const pairs = Number(process.argv[2] ?? 2);
const count = Number(process.argv[3] ?? 1_500);
const tree = await prepareTree(path.resolve(import.meta.dirname, '..'));

async function pgss(sqlText: string) {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
  await client.connect();
  try {
    return (await client.query<Record<string, string | number>>(sqlText)).rows;
  } finally {
    await client.end();
  }
}

let databaseUrl: string | undefined;
let dataDir: string | undefined;
if (process.env.HISTORY) {
  databaseUrl = await freshBenchDatabase();
  dataDir = tempDir('profile-upkeep');
  const database = await openDatabase({ url: databaseUrl, poolSize: 2 });
  try {
    const migrated = await (await createMigrator(database.db)).migrateTo('0026-job-coalescing');
    if (migrated.error) throw new Error('Migrating to 0026 failed', { cause: migrated.error });
    await seedHistory(database.db, Number(process.env.HISTORY), 'year');
    await migrateToLatest(database.db, { routines: SQL_ROUTINES });
  } finally {
    await database.close();
  }
  const server = await startParley(tree, { engine: 'PostgreSQL', existing: { databaseUrl, dataDir }, env: { LOG_LEVEL: 'info' } });
  while (!server.child.output().includes('service levels backfilled')) await new Promise((resolve) => setTimeout(resolve, 250));
  await server.stop();
  const again = await openDatabase({ url: databaseUrl, poolSize: 2 });
  await sql`analyze`.execute(again.db);
  await again.close();
  console.log(`seeded ${process.env.HISTORY} conversations and backfilled`);
}
let factory: ReturnType<typeof deliveryFactory> | undefined;
let seq = 0;
const run = Date.now().toString(36);
for (let i = 0; i < pairs * 2; i++) {
  const upkeep = i % 4 === 0 || i % 4 === 3;
  const server = await startParley(tree, {
    engine: 'PostgreSQL',
    ...(databaseUrl && dataDir ? { existing: { databaseUrl, dataDir } } : {}),
    env: { INSIGHTS_UPKEEP: upkeep ? 'on' : 'off' },
    // CPU_PROF=dir: a V8 CPU profile of each load's server, in dir/on-<i> or dir/off-<i>.
    ...(process.env.CPU_PROF ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${process.env.CPU_PROF}/${upkeep ? 'on' : 'off'}-${i}`] } : {}),
  });
  databaseUrl = server.env.DATABASE_URL;
  dataDir = server.env.DATA_DIR;
  try {
    if (!factory) {
      const channel = await connectWhatsApp(tree, server);
      factory = deliveryFactory({ phoneNumberId: channel.phoneNumberId, appSecret: channel.appSecret, customers: 500, run });
    }
    await settle(server);
    if (process.env.PGSS) await pgss('select pg_stat_statements_reset()');
    const first = seq;
    const meter = cpuMeter(server);
    await steadyLoad({
      baseUrl: server.url,
      rate: 100,
      count,
      make: (k) => {
        const delivery = factory!(first + k);
        return { method: 'POST', path: '/webhooks/whatsapp', headers: delivery.headers, body: delivery.body };
      },
    });
    seq += count;
    await settle(server, 300_000);
    const cpu = meter();
    console.log(`upkeep ${upkeep ? 'on ' : 'off'}: server ${(cpu.serverMs / count).toFixed(3)} ms + postgres ${(cpu.postgresMs / count).toFixed(3)} ms per delivery`);
    if (process.env.PGSS) {
      const database = new URL(databaseUrl!).pathname.slice(1);
      const rows = await pgss(`select calls, rows, round(total_exec_time::numeric, 1) as exec_ms, round(total_plan_time::numeric, 1) as plan_ms,
          left(regexp_replace(query, '\\s+', ' ', 'g'), 110) as q
        from pg_stat_statements where dbid = (select oid from pg_database where datname = '${database}')
        order by total_exec_time + total_plan_time desc limit ${Number(process.env.PGSS_TOP ?? 14)}`);
      for (const r of rows) console.log(`  ${r.calls} calls, ${r.rows} rows, exec ${r.exec_ms} ms, plan ${r.plan_ms} ms: ${r.q}`);
      const [totals] = await pgss(`select sum(wal_bytes) as wal, sum(wal_fpi) as fpi, sum(shared_blks_dirtied) as dirtied, sum(shared_blks_hit + shared_blks_read) as blocks
        from pg_stat_statements where dbid = (select oid from pg_database where datname = '${database}') and toplevel`);
      console.log(`  top-level statements: ${JSON.stringify(totals)}`);
      const byWal = await pgss(`select calls, wal_bytes, wal_fpi, shared_blks_dirtied as dirtied, shared_blks_hit + shared_blks_read as blocks, left(regexp_replace(query, '\\s+', ' ', 'g'), 90) as q
        from pg_stat_statements where dbid = (select oid from pg_database where datname = '${database}') and not toplevel
        order by wal_bytes desc limit 12`);
      for (const r of byWal) console.log(`  wal ${r.wal_bytes} B (${r.wal_fpi} fpi), ${r.dirtied} dirtied, ${r.blocks} blocks, ${r.calls} calls: ${r.q}`);
    }
  } finally {
    await server.stop();
  }
}
await dropBenchDatabase();
if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
tree.remove();
