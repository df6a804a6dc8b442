/**
 * Cold start of `npm start` (`node scripts/start.mjs`, what the npm script runs; npm's own start-up
 * is measured separately and reported in the notes) on the built tree: spawn → first HTTP 200 on `/`. Every start gets a fresh
 * free port; every round a fresh data directory (or a fresh `parley_bench` database). The first
 * start of a round meets an empty database (creates and migrates it), the following ones meet the
 * migrated one — the figure the issue sets a goal for.
 */
import fs from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../server/db/database';
import { migrateToLatest } from '../server/db/migrate';
import { SQL_ROUTINES } from '../server/routines';
import type { BenchContext, BenchGroup } from './lib/context';
import { dropBenchDatabase, freshBenchDatabase } from './lib/postgres';
import { freePort, LOOPBACK, spawnNode, waitFor200 } from './lib/process';
import type { GroupReporter } from './lib/report';
import { tempDir } from './lib/tmp';
import { median, medianSeconds, ms, num, seconds } from './lib/stats';

const ROUNDS = 3;
const RESTARTS_PER_ROUND = 2;
const START_TIMEOUT_MS = 60_000;
const GOAL = { text: '≤ 3 s', max: 3_000 };

interface StartSample {
  /** Spawn → first 200 on `/`. */
  totalMs: number;
  /** main()'s own "ready in N ms" (configuration → listening). */
  readyInMs?: number;
  /** Spawn → the "Parley is running" line. */
  readyLineMs?: number;
  /** CPU time (user + system, all threads) the process had used when the 200 arrived (Linux). */
  cpuMs?: number;
}

/** user + system CPU time of a live process from /proc (Linux; clock ticks are 10 ms there). */
function cpuTimeMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

async function timeStart(cwd: string, args: string[], env: Record<string, string | undefined>, readyPattern?: RegExp): Promise<StartSample> {
  const port = await freePort();
  const started = performance.now();
  const child = spawnNode(args, {
    cwd,
    env: {
      // Nothing from the bench's own environment leaks into the server's configuration.
      DATABASE_URL: undefined,
      ADMIN_EMAIL: undefined,
      ADMIN_PASSWORD: undefined,
      AUTH_SECRET: undefined,
      PUBLIC_URL: undefined,
      WEB_DIST_DIR: undefined,
      NODE_ENV: 'production',
      ...env,
      PORT: String(port),
      HOST: LOOPBACK,
    },
  });
  try {
    const readyLine = readyPattern ? child.waitForOutput(readyPattern, START_TIMEOUT_MS) : undefined;
    readyLine?.catch(() => undefined);
    const at200 = await waitFor200(`http://${LOOPBACK}:${port}/`, child, START_TIMEOUT_MS);
    if (/Building Parley/u.test(child.output())) throw new Error('start.mjs rebuilt the tree during a timed start');
    const sample: StartSample = { totalMs: at200 - started, cpuMs: cpuTimeMs(child.process.pid) };
    if (readyLine) {
      sample.readyLineMs = (await readyLine) - started;
      const readyIn = /ready in (\d+) ms/u.exec(child.output())?.[1];
      if (readyIn) sample.readyInMs = Number(readyIn);
    }
    return sample;
  } finally {
    await child.stop();
  }
}

const READY = /Parley is running at .*ready in \d+ ms/u;

async function measureEngine(
  report: GroupReporter,
  engine: 'PGlite' | 'PostgreSQL',
  cwd: string,
  baseline: string,
  /** Runs while the last round's data directory still exists. */
  inspect?: (dataDir: string, existing: StartSample[]) => Promise<void>,
): Promise<void> {
  const empty: StartSample[] = [];
  const existing: StartSample[] = [];
  const dataDirs: string[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const dataDir = tempDir('data');
      dataDirs.push(dataDir);
      const env: Record<string, string> = { DATA_DIR: dataDir };
      if (engine === 'PostgreSQL') env.DATABASE_URL = await freshBenchDatabase();
      const first = await timeStart(cwd, ['scripts/start.mjs'], env, READY);
      empty.push(first);
      report.progress(`${engine} round ${round + 1}: empty ${seconds(first.totalMs)}`);
      for (let i = 0; i < RESTARTS_PER_ROUND; i++) {
        const again = await timeStart(cwd, ['scripts/start.mjs'], env, READY);
        existing.push(again);
        report.progress(`${engine} round ${round + 1}: existing ${seconds(again.totalMs)}`);
      }
    }
    if (inspect) await inspect(dataDirs.at(-1)!, existing);
  } finally {
    if (engine === 'PostgreSQL') await dropBenchDatabase();
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  }
  const what = engine === 'PGlite' ? 'data directory' : 'database';
  const existingTotals = existing.map((s) => s.totalMs);
  report.row({
    figure: `Cold start to first 200 on /, ${engine}, existing migrated ${what}`,
    measured: medianSeconds(existingTotals),
    value: median(existingTotals),
    goal: engine === 'PGlite' ? GOAL : undefined,
    baseline,
  });
  const cpu = existing.flatMap((s) => (s.cpuMs === undefined ? [] : [s.cpuMs]));
  if (cpu.length) {
    report.row({
      figure: `↳ CPU time used by each of those starts (user + system, all threads)`,
      measured: medianSeconds(cpu),
    });
  }
  report.row({
    figure: `Cold start to first 200 on /, ${engine}, empty ${what} (first start)`,
    measured: medianSeconds(empty.map((s) => s.totalMs)),
    baseline,
  });
}

/** Where the time of a start on an existing PGlite directory goes (medians). */
async function breakdown(report: GroupReporter, cwd: string, samples: StartSample[], dataDir: string): Promise<void> {
  const nodeBoot: number[] = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    const child = spawnNode(['-e', '0'], { cwd });
    await child.exited;
    nodeBoot.push(performance.now() - started);
  }
  const fingerprint = spawnNode(
    [
      '--input-type=module',
      '-e',
      `import { isBuildFresh } from './scripts/build-lib.mjs';
       const t = performance.now(); const fresh = isBuildFresh(); console.log('fingerprint', performance.now() - t, fresh);`,
    ],
    { cwd },
  );
  await fingerprint.exited;
  const fingerprintMs = Number(/fingerprint ([\d.]+)/u.exec(fingerprint.output())?.[1] ?? Number.NaN);

  // First-import cost of each package dist/server/main.js imports, in the bundle's order (a package
  // shared by two is charged to the first).
  const bundleText = fs.readFileSync(path.join(cwd, 'dist/server/main.js'), 'utf8');
  const packages = [...new Set([...bundleText.matchAll(/^import\s[^;]*?\sfrom\s*"([^".][^"]*)";/gmu)].map((m) => m[1]!))].filter((p) => !p.startsWith('node:'));
  const importer = spawnNode(
    [
      '--input-type=module',
      '-e',
      `for (const name of ${JSON.stringify(packages)}) { const t = performance.now(); await import(name); console.log('import', name, performance.now() - t); }`,
    ],
    { cwd },
  );
  await importer.exited;
  const imports = [...importer.output().matchAll(/^import (\S+) ([\d.]+)$/gmu)].map((m) => ({ name: m[1]!, ms: Number(m[2]) }));
  const importTotal = imports.reduce((sum, i) => sum + i.ms, 0);
  const heaviest = [...imports].sort((a, b) => b.ms - a.ms).slice(0, 5);

  // What `npm start` adds on top: npm's own start-up, timed on a script that does nothing.
  let npmMs = Number.NaN;
  const npmCli = process.env.npm_execpath;
  if (npmCli?.endsWith('.js')) {
    const started = performance.now();
    const npm = spawnNode([npmCli, 'run', '--silent', 'env'], { cwd });
    await npm.exited;
    npmMs = performance.now() - started;
  }

  const t0 = performance.now();
  const database = await openDatabase({ dataDir: path.join(dataDir, 'pglite') });
  const t1 = performance.now();
  await migrateToLatest(database.db, { routines: SQL_ROUTINES });
  const t2 = performance.now();
  await database.close();
  const openMs = t1 - t0;
  const migrateMs = t2 - t1;

  const total = median(samples.map((s) => s.totalMs));
  const readyIn = median(samples.flatMap((s) => (s.readyInMs === undefined ? [] : [s.readyInMs])));
  const readyLine = median(samples.flatMap((s) => (s.readyLineMs === undefined ? [] : [s.readyLineMs])));
  const beforeMain = readyLine - readyIn;
  const cpu = median(samples.flatMap((s) => (s.cpuMs === undefined ? [] : [s.cpuMs])));
  report.note(
    `Where a PGlite cold start on an existing directory goes (medians, total ${ms(total)}): ` +
      `spawn → main() ${ms(beforeMain)} (bare \`node -e 0\` ${ms(median(nodeBoot))}, start.mjs build-freshness fingerprint ${ms(fingerprintMs)}, ` +
      `the rest loading dist/server/main.js and its dependencies: importing those packages alone took ${ms(importTotal)}, heaviest ${heaviest.map((i) => `${i.name} ${ms(i.ms)}`).join(', ')}); ` +
      `main() → listening ${ms(readyIn)} (opening the PGlite directory alone ${ms(openMs)} and the no-op migration check ${ms(migrateMs)}, measured in the bench process; ` +
      `the rest is buildApp, the first-admin check and listen); listening → first 200 ${ms(total - readyLine)} (includes the 5 ms probe interval). ` +
      `The server had used ${ms(cpu)} of CPU (user + system, all threads) by its first 200: on a busy machine the wall time grows past that. ` +
      (Number.isFinite(npmMs) ? `Typing \`npm start\` adds npm's own start-up on top (\`npm run env\`: ${ms(npmMs)}).` : ''),
  );
}

export const coldStart: BenchGroup = {
  id: 'cold-start',
  title: 'Cold start',
  method: [
    'Spawn `node scripts/start.mjs` (what `npm start` runs) in a freshly built copy of the working tree, then probe `GET /` every 5 ms until it answers 200. `NODE_ENV=production`, default log level, a free loopback port per start.',
    `${ROUNDS} rounds per engine; each round starts once on an empty data directory (PGlite) or a freshly created \`parley_bench\` database (PostgreSQL), then ${RESTARTS_PER_ROUND} more times on the now-migrated one. Medians with min–max.`,
    'Baseline: a bare Fastify hello-world process (bench/fixtures/hello-fastify.mjs), spawn → first 200, same probe.',
    'The OS file cache is warm (the same files were just built/read): a first start after a reboot is slower.',
  ],
  async run(ctx: BenchContext, report: GroupReporter) {
    const tree = await ctx.tree();
    if (!tree.webBuilt) report.note('The web app does not build yet: `/` is served from a placeholder index.html; the server is measured as usual.');

    const bare: number[] = [];
    for (let i = 0; i < 3; i++) {
      const sample = await timeStart(tree.dir, [path.join(ctx.repoRoot, 'bench/fixtures/hello-fastify.mjs')], {});
      bare.push(sample.totalMs);
    }
    const baseline = `bare Fastify ${seconds(median(bare))}`;
    report.progress(`bare Fastify process: ${bare.map((v) => num(v)).join(', ')} ms`);

    await measureEngine(report, 'PGlite', tree.dir, baseline, (dataDir, existing) => breakdown(report, tree.dir, existing, dataDir));

    if (await ctx.postgres()) {
      await measureEngine(report, 'PostgreSQL', tree.dir, baseline);
    } else {
      report.row({ figure: 'Cold start, PostgreSQL', measured: 'PostgreSQL not reachable (see Machine)', verdict: 'skipped' });
    }
  },
};
