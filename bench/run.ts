/**
 * `npm run bench`: measures the figures the issues set goals for, each beside a baseline measured
 * in the same run, prints one table and writes it to docs/BENCHMARKS.md.
 *
 *   npm run bench                         every group; rewrites docs/BENCHMARKS.md
 *   npm run bench -- --only=jobs,bundle   a subset; the document is left alone unless --write
 *   npm run bench -- --no-write           print only
 *   npm run bench -- --no-wait            do not wait for the machine to be quiet first
 *   BENCH_LIGHTHOUSE_REPORTS=dir npm run bench -- --only=lighthouse   keep Lighthouse's HTML reports
 *
 * A missed goal is reported (MISSED), not failed: the exit code is 0. It is 1 only when the bench
 * itself broke (a row says ERROR). To add a figure: a row in an existing group, or a new file
 * exporting a BenchGroup listed in GROUPS below.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { agentEngine } from './agent-engine';
import { automations } from './automations';
import { billing } from './billing';
import { faqBench } from './faq';
import { bundle } from './bundle';
import { coldStart } from './cold-start';
import { crash } from './crash';
import { hooks } from './hooks';
import { insights } from './insights';
import { jobs } from './jobs';
import { lighthouse } from './lighthouse';
import type { BenchContext, BenchGroup } from './lib/context';
import { waitForQuiet, watchCpu } from './lib/machine';
import { postgresVersion } from './lib/postgres';
import { outbound } from './outbound';
import { realtime } from './realtime';
import { markdownTable, Report, textTable } from './lib/report';
import { prepareTree, type BuiltTree } from './lib/tree';
import { signIn } from './sign-in';
import { siteRps } from './site-rps';
import { webhooks } from './webhooks';

const GROUPS: readonly BenchGroup[] = [coldStart, bundle, lighthouse, siteRps, signIn, jobs, webhooks, realtime, automations, outbound, agentEngine, faqBench, crash, hooks, insights, billing];

const repoRoot = path.resolve(import.meta.dirname, '..');
const DOC = path.join(repoRoot, 'docs/BENCHMARKS.md');

/** "Quiet" for this bench: at most this share of both cores busy with other work. */
const QUIET_BUSY_PERCENT = 25;
const FIRST_WAIT_MS = 60_000;
const GROUP_WAIT_MS = 15_000;

interface Args {
  only: Set<string> | undefined;
  write: boolean | undefined;
  wait: boolean;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { only: undefined, write: undefined, wait: true };
  for (const arg of argv) {
    if (arg.startsWith('--only=')) args.only = new Set(arg.slice('--only='.length).split(',').map((s) => s.trim()).filter(Boolean));
    else if (arg === '--write') args.write = true;
    else if (arg === '--no-write') args.write = false;
    else if (arg === '--no-wait') args.wait = false;
    else if (arg === '--help' || arg === '-h') {
      console.log(`npm run bench [-- --only=${GROUPS.map((g) => g.id).join(',')}] [--write | --no-write] [--no-wait]`);
      process.exit(0);
    } else {
      console.error(`Unknown argument ${arg} (try --help)`);
      process.exit(2);
    }
  }
  const unknown = [...(args.only ?? [])].filter((id) => !GROUPS.some((g) => g.id === id));
  if (unknown.length) {
    console.error(`Unknown group(s) ${unknown.join(', ')}; groups: ${GROUPS.map((g) => g.id).join(', ')}`);
    process.exit(2);
  }
  return args;
}

function git(...args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

function packageVersion(name: string): string {
  try {
    const json = JSON.parse(fs.readFileSync(path.join(repoRoot, 'node_modules', name, 'package.json'), 'utf8')) as { version?: string };
    return json.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The commit and working tree measured, read when the run starts (the measured copy is made then; the tree may change during a long run). */
const SOURCE = { commit: git('rev-parse', '--short', 'HEAD'), dirty: git('status', '--porcelain').split('\n').filter(Boolean).length };

function machineNotes(pg: string, loadBefore: number[], loadAfter: number[], tree: BuiltTree | undefined): string[] {
  const cpus = os.cpus();
  const { commit, dirty } = SOURCE;
  const load = (l: number[]) => l.map((v) => v.toFixed(2)).join(' / ');
  return [
    `${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ${os.type()} ${os.release()}`,
    `Node ${process.version}; PGlite ${packageVersion('@electric-sql/pglite')}; PostgreSQL ${pg}; Fastify ${packageVersion('fastify')}; autocannon ${packageVersion('autocannon')}; Lighthouse ${packageVersion('lighthouse')}`,
    `Commit ${commit}${dirty ? ` plus ${dirty} uncommitted path(s) in the working tree when the run started (the bench measures the working tree as it was then)` : ''}`,
    `Load average (1 / 5 / 15 min) before: ${load(loadBefore)}, after: ${load(loadAfter)} — other work on this 2-core machine skews everything`,
    ...(tree ? [`Build of the measured copy: ${(tree.buildMs / 1000).toFixed(1)} s${tree.webBuilt ? '' : ' (server only: the web app did not build)'}`] : []),
    'Everything on 127.0.0.1.',
  ];
}

function markdown(report: Report, groups: readonly BenchGroup[], machine: string[], startedAt: Date, seconds: number): string {
  const lines = [
    '# Benchmarks',
    '',
    `<!-- Written by \`npm run bench\` (bench/run.ts); edit the bench, not this file. -->`,
    '',
    `Last full run: ${startedAt.toISOString().replace(/\.\d+Z$/u, 'Z')}, ${Math.round(seconds)} s.`,
    '',
    'The figures the issues set goals for, each beside a baseline measured in the same run on the same',
    'machine. They are goals, not test assertions: a missed goal shows **MISSED** here and the bench still',
    'exits 0. Compare numbers within one run; across runs and machines they move.',
    '',
    '## How to run',
    '',
    '```sh',
    'npm run bench                        # everything, rewrites this file',
    'npm run bench -- --only=jobs,bundle  # a subset; add --write to update this file anyway',
    'npm run bench -- --no-wait           # do not wait for a quiet machine first',
    '```',
    '',
    `Groups: ${GROUPS.map((g) => `\`${g.id}\``).join(', ')}. A full run takes about 55 minutes on a quiet machine (the webhook group waits for its backlog to be processed; the events-out group keeps a receiver down for 5 minutes, then waits for the catch-up; Lighthouse audits six pages three times, about 2.5 minutes; the insights group seeds and backfills four histories, the largest 1,000,000 messages, about 12 minutes); before each timed group`,
    `the bench waits (up to ${FIRST_WAIT_MS / 1000} s first, ${GROUP_WAIT_MS / 1000} s later) for other work to leave the cores at most ${QUIET_BUSY_PERCENT} % busy.`,
    '',
    'PostgreSQL rows need a server on 127.0.0.1:5432 (`BENCH_DATABASE_URL` overrides the maintenance URL,',
    '`postgres://postgres@127.0.0.1:5432/postgres`); the bench creates and drops its own `parley_bench` database (and `parley_bench_insights` for the insights history).',
    'The process-level figures run against a copy of the working tree built in a temporary directory.',
    '',
    '## Machine',
    '',
    ...machine.map((m) => `- ${m}`),
    '',
    '## Results',
    '',
    markdownTable(report.rows),
    '',
    'Verdicts: met / **MISSED** (a goal from an issue), info (no goal; reported for context), skipped, **ERROR** (the bench failed).',
    ...(report.rows.some((r) => r.noisy)
      ? ['', `\\* other work (tests, builds) used more than ${QUIET_BUSY_PERCENT} % of the machine's CPU while the group ran; see its notes.`]
      : []),
    '',
    '## Notes from this run',
    '',
  ];
  for (const group of groups) {
    const notes = report.notes.filter((n) => n.group === group.title);
    if (!notes.length) continue;
    lines.push(`### ${group.title}`, '', ...notes.map((n) => `- ${n.text.replaceAll('\n', ' ')}`), '');
  }
  const analysed = groups.filter((g) => g.analysis?.length);
  if (analysed.length) {
    lines.push(
      '## Where the time goes',
      '',
      'What profiling (`--cpu-prof` / the inspector on the bench’s server, statement logging on PostgreSQL) found where a goal is missed, what was changed and what would move the figure further. Findings of that investigation, not of the run above: its own numbers are in the notes.',
      '',
    );
    for (const group of analysed) lines.push(`### ${group.title}`, '', ...group.analysis!.map((a) => `- ${a}`), '');
  }
  lines.push('## How each figure is measured', '');
  for (const group of groups) lines.push(`### ${group.title}`, '', ...group.method.map((m) => `- ${m}`), '');
  return `${lines.join('\n').trimEnd()}\n`;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const groups = GROUPS.filter((g) => !args.only || args.only.has(g.id));
  const write = args.write ?? !args.only;
  const startedAt = new Date();
  const loadBefore = os.loadavg();

  let treePromise: Promise<BuiltTree> | undefined;
  let pgPromise: Promise<{ version?: string; error?: string }> | undefined;
  const ctx: BenchContext = {
    repoRoot,
    tree() {
      treePromise ??= (async () => {
        console.log('Building a copy of the working tree (npm run build in a temporary directory)…');
        const tree = await prepareTree(repoRoot);
        console.log(`  built in ${(tree.buildMs / 1000).toFixed(1)} s${tree.webBuilt ? '' : `; THE WEB APP DOES NOT BUILD:\n${tree.webError ?? ''}`}`);
        return tree;
      })();
      return treePromise;
    },
    async postgres() {
      pgPromise ??= postgresVersion();
      const pg = await pgPromise;
      return pg.version;
    },
  };

  const report = new Report();
  const started = performance.now();
  let first = true;
  try {
    for (const group of groups) {
      console.log(`\n== ${group.title}`);
      const reporter = report.forGroup(group.title);
      if (args.wait && !group.deterministic) {
        const waitMs = first ? FIRST_WAIT_MS : GROUP_WAIT_MS;
        first = false;
        await waitForQuiet(QUIET_BUSY_PERCENT, waitMs, (busy) =>
          console.log(`  … the machine is busy (${Math.round(busy)} % CPU used by other work); waiting up to ${waitMs / 1000} s for a quiet moment`),
        );
      }
      const cpu = watchCpu();
      try {
        await group.run(ctx, reporter);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        reporter.row({ figure: `${group.title}: the bench failed`, measured: message.split('\n')[0]!.slice(0, 120), verdict: 'ERROR' });
        reporter.note(`Error: ${message}`);
        console.error(error);
      }
      const share = cpu.stop();
      if (share && !group.deterministic) {
        const busy = share.others > QUIET_BUSY_PERCENT;
        reporter.note(
          `While this group ran, other work used ${Math.round(share.others)} % of the machine's CPU (the bench and its servers ${Math.round(share.ours)} %)` +
            (busy ? ': a busy machine, so these figures are slower than the code is (marked *).' : '.'),
        );
        if (busy) report.markNoisy(group.title);
      }
    }
  } finally {
    if (treePromise) {
      await treePromise.then(
        (tree) => tree.remove(),
        () => undefined,
      );
    }
  }
  const seconds = (performance.now() - started) / 1000;

  const pg = pgPromise ? await pgPromise : await postgresVersion();
  const tree = treePromise ? await treePromise.catch(() => undefined) : undefined;
  const machine = machineNotes(pg.version ?? `not reachable (${pg.error ?? 'unknown'})`, loadBefore, os.loadavg(), tree);

  console.log(`\n${textTable(report.rows)}\n`);
  for (const m of machine) console.log(`  ${m}`);
  const missed = report.rows.filter((r) => r.verdict === 'MISSED');
  const errors = report.rows.filter((r) => r.verdict === 'ERROR');
  const met = report.rows.filter((r) => r.verdict === 'met');
  console.log(`\n${met.length} goal(s) met, ${missed.length} MISSED${errors.length ? `, ${errors.length} ERROR` : ''} (${Math.round(seconds)} s).`);
  for (const row of missed) console.log(`  MISSED: ${row.figure}: ${row.measured} (goal ${row.goal?.text ?? ''})`);

  if (write) {
    fs.writeFileSync(DOC, markdown(report, groups, machine, startedAt, seconds));
    console.log(`Wrote ${path.relative(process.cwd(), DOC)}.`);
  } else {
    console.log(`docs/BENCHMARKS.md not updated (${args.write === false ? '--no-write' : 'subset run; add --write to update it anyway'}).`);
  }
  process.exit(errors.length ? 1 : 0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
