/**
 * `npm run bench`: measures the figures the issues set goals for, each beside a baseline measured
 * in the same run, prints one table and writes it to docs/BENCHMARKS.md.
 *
 *   npm run bench                         every group; rewrites docs/BENCHMARKS.md
 *   npm run bench -- --only=jobs,bundle   a subset; the document is left alone unless --write or --merge
 *   npm run bench -- --only=insights --merge   a subset whose groups replace theirs in docs/BENCHMARKS.md
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
import { MERGED_HEADING, mergeDoc, parseDoc } from './lib/merge-doc';
import { HEADERS, markdownTable, Report, textTable } from './lib/report';
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
  /** Replace only the measured groups in docs/BENCHMARKS.md, keeping the others from earlier runs. */
  merge: boolean;
  wait: boolean;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { only: undefined, write: undefined, merge: false, wait: true };
  for (const arg of argv) {
    if (arg.startsWith('--only=')) args.only = new Set(arg.slice('--only='.length).split(',').map((s) => s.trim()).filter(Boolean));
    else if (arg === '--write') args.write = true;
    else if (arg === '--no-write') args.write = false;
    else if (arg === '--merge') args.merge = true;
    else if (arg === '--no-wait') args.wait = false;
    else if (arg === '--help' || arg === '-h') {
      console.log(`npm run bench [-- --only=${GROUPS.map((g) => g.id).join(',')}] [--write | --merge | --no-write] [--no-wait]`);
      process.exit(0);
    } else {
      console.error(`Unknown argument ${arg} (try --help)`);
      process.exit(2);
    }
  }
  if (args.merge && (!args.only || args.write !== undefined)) {
    console.error('--merge needs --only (a full run rewrites the document) and neither --write nor --no-write');
    process.exit(2);
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

/** What the document shows of the runs: the full run's line and machine, later merged runs, the rows and notes. */
interface DocContent {
  fullRunLine: string;
  machine: readonly string[];
  merged: readonly (readonly string[])[];
  rows: readonly string[];
  notes: readonly (readonly [string, readonly string[]])[];
}

/** This run's table rows and notes as markdown lines, by group title. */
function runContent(report: Report, groups: readonly BenchGroup[]): { rows: Map<string, string[]>; notes: Map<string, string[]> } {
  const rows = new Map<string, string[]>();
  const notes = new Map<string, string[]>();
  for (const group of groups) {
    const own = report.rows.filter((r) => r.group === group.title);
    if (own.length) rows.set(group.title, markdownTable(own).split('\n').slice(2));
    const text = report.notes.filter((n) => n.group === group.title).map((n) => `- ${n.text.replaceAll('\n', ' ')}`);
    if (text.length) notes.set(group.title, text);
  }
  return { rows, notes };
}

function markdown(content: DocContent): string {
  const lines = [
    '# Benchmarks',
    '',
    `<!-- Written by \`npm run bench\` (bench/run.ts); edit the bench, not this file. -->`,
    '',
    content.fullRunLine,
    '',
    'The figures the issues set goals for, each beside a baseline measured in the same run on the same',
    'machine. They are goals, not test assertions: a missed goal shows **MISSED** here and the bench still',
    'exits 0. Compare numbers within one run; across runs and machines they move.',
    '',
    '## How to run',
    '',
    '```sh',
    'npm run bench                                 # everything, rewrites this file',
    'npm run bench -- --only=jobs,bundle           # a subset; add --write to update this file anyway',
    'npm run bench -- --only=insights,billing --merge  # a subset whose groups replace theirs here',
    'npm run bench -- --no-wait                    # do not wait for a quiet machine first',
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
    ...content.machine.map((m) => `- ${m}`),
    '',
    ...(content.merged.length
      ? [
          MERGED_HEADING,
          '',
          'These groups were measured again later, on the machine named under each run (machines differ in speed: compare each row with its own baseline); every other group is from the full run above.',
          '',
          ...content.merged.flat(),
          '',
        ]
      : []),
    '## Results',
    '',
    `| group | ${HEADERS.join(' | ')} |`,
    `|${' --- |'.repeat(HEADERS.length + 1)}`,
    ...content.rows,
    '',
    'Verdicts: met / **MISSED** (a goal from an issue), info (no goal; reported for context), skipped, **ERROR** (the bench failed).',
    ...(content.rows.some((r) => r.endsWith('\\* |'))
      ? ['', `\\* other work (tests, builds) used more than ${QUIET_BUSY_PERCENT} % of the machine's CPU while the group ran; see its notes.`]
      : []),
    '',
    '## Notes from this run',
    '',
  ];
  for (const [title, notes] of content.notes) lines.push(`### ${title}`, '', ...notes, '');
  const analysed = GROUPS.filter((g) => g.analysis?.length);
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
  for (const group of GROUPS) lines.push(`### ${group.title}`, '', ...group.method.map((m) => `- ${m}`), '');
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

  const ours = runContent(report, groups);
  if (args.merge) {
    const previous = fs.existsSync(DOC) ? parseDoc(fs.readFileSync(DOC, 'utf8')) : undefined;
    if (!previous) {
      console.error(`${path.relative(process.cwd(), DOC)} is not a document this bench wrote: run the full bench first.`);
      process.exit(1);
    }
    const merged = mergeDoc({
      previous,
      order: GROUPS.map((g) => g.title),
      measured: groups.map((g) => g.title),
      rows: ours.rows,
      notes: ours.notes,
      runLine: `${startedAt.toISOString().replace(/\.\d+Z$/u, 'Z')}, ${Math.round(seconds)} s: ${groups.map((g) => `\`${g.id}\``).join(', ')}`,
      machine,
    });
    fs.writeFileSync(DOC, markdown(merged));
    console.log(`Merged ${groups.map((g) => g.id).join(', ')} into ${path.relative(process.cwd(), DOC)}.`);
  } else if (write) {
    fs.writeFileSync(
      DOC,
      markdown({
        fullRunLine: `Last full run: ${startedAt.toISOString().replace(/\.\d+Z$/u, 'Z')}, ${Math.round(seconds)} s.`,
        machine,
        merged: [],
        rows: groups.flatMap((g) => ours.rows.get(g.title) ?? []),
        notes: groups.flatMap((g): [string, string[]][] => (ours.notes.has(g.title) ? [[g.title, ours.notes.get(g.title)!]] : [])),
      }),
    );
    console.log(`Wrote ${path.relative(process.cwd(), DOC)}.`);
  } else {
    console.log(`docs/BENCHMARKS.md not updated (${args.write === false ? '--no-write' : 'subset run; add --merge to put its groups in, or --write to rewrite it'}).`);
  }
  process.exit(errors.length ? 1 : 0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
