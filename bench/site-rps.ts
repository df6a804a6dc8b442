/**
 * Public page requests per second (issue 15 §6): `GET /`, the server-rendered landing page, from
 * the real built server on PGlite with autocannon, beside a bare Fastify hello-world route measured
 * the same way in the same run. Every request reads the content's version (one primary-key read)
 * and sends the cached page; nothing is rendered again while the content is unchanged.
 */
import path from 'node:path';
import type { BenchContext, BenchGroup } from './lib/context';
import { describe, load, type LoadResult } from './lib/load';
import { cpuMeter, settle, startParley } from './lib/parley';
import { freePort, LOOPBACK, spawnNode, waitFor200 } from './lib/process';
import type { GroupReporter } from './lib/report';
import { kb, ms, num } from './lib/stats';

const CONNECTIONS = 50;
const DURATION_S = 10;
const WARMUP_S = 2;
/** What a browser sends for a page (the server may compress; today it does not). */
const BROWSER_HEADERS = {
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
  'accept-encoding': 'gzip, deflate, br, zstd',
  'accept-language': 'en-US,en;q=0.9',
};

async function bareBaseline(repoRoot: string): Promise<LoadResult> {
  const port = await freePort();
  const hello = spawnNode([path.join(repoRoot, 'bench/fixtures/hello-fastify.mjs')], { cwd: repoRoot, env: { PORT: String(port), HOST: LOOPBACK } });
  try {
    const url = `http://${LOOPBACK}:${port}/`;
    await waitFor200(url, hello, 30_000);
    await load({ url, connections: CONNECTIONS, durationSeconds: WARMUP_S });
    return await load({ url, connections: CONNECTIONS, durationSeconds: DURATION_S });
  } finally {
    await hello.stop();
  }
}

export const siteRps: BenchGroup = {
  id: 'site-rps',
  title: 'Public page requests per second',
  method: [
    'The real server (`node scripts/start.mjs` in the built copy, PGlite, a fresh data directory, LOG_LEVEL=warn — no request log, as the baseline has none), left to settle after start-up; `/` fetched once first (its page rendered and cached).',
    `Load: autocannon in the bench process, ${CONNECTIONS} connections, ${WARMUP_S} s warm-up then ${DURATION_S} s, \`GET /\` with a browser's Accept, Accept-Encoding and Accept-Language headers. req/s counts 2xx answers only. Each request reads the content's version (one primary-key read) and sends the cached HTML with its ETag; no If-None-Match is sent, so every answer is the full page (a returning browser would get 304s).`,
    'Baseline: the bare Fastify hello-world route (bench/fixtures/hello-fastify.mjs) in its own process, same connections, duration and load generator, in the same run. autocannon shares the two cores with the server: compare within one run.',
    'No goal (issue 15 §6 asks for the figure beside the bare route).',
  ],
  async run(ctx: BenchContext, report: GroupReporter) {
    const tree = await ctx.tree();
    if (!tree.webBuilt) {
      report.row({ figure: 'GET / (server-rendered landing page), PGlite', measured: 'web app does not build yet', verdict: 'skipped' });
      return;
    }
    const bare = await bareBaseline(ctx.repoRoot);
    report.progress(`bare Fastify: ${describe(bare)}`);
    const server = await startParley(tree, { engine: 'PGlite' });
    try {
      await settle(server);
      const url = `${server.url}/`;
      const first = await fetch(url, { headers: BROWSER_HEADERS });
      const html = await first.text();
      if (first.status !== 200 || !/^text\/html/u.test(first.headers.get('content-type') ?? '')) {
        throw new Error(`GET / answered ${first.status} ${first.headers.get('content-type') ?? ''}: ${html.slice(0, 200)}`);
      }
      const encoding = first.headers.get('content-encoding');
      const sent = Number(first.headers.get('content-length') ?? Number.NaN);
      await load({ url, connections: CONNECTIONS, durationSeconds: WARMUP_S, headers: BROWSER_HEADERS });
      const started = performance.now();
      const meter = cpuMeter(server);
      const result = await load({ url, connections: CONNECTIONS, durationSeconds: DURATION_S, headers: BROWSER_HEADERS });
      const cpu = meter();
      const seconds = (performance.now() - started) / 1000;
      const failures = result.non2xx + result.errors;
      report.row({
        figure: `GET / (server-rendered landing page), PGlite, ${CONNECTIONS} connections, ${DURATION_S} s`,
        measured: `${num(result.rps)} req/s = ${num((100 * result.rps) / bare.rps)} % of the bare route; p50 ${ms(result.p50)}, p99 ${ms(result.p99)}${failures ? `, ${failures} failed` : ''}`,
        baseline: `hello world ${num(bare.rps)} req/s, p99 ${ms(bare.p99)}`,
        verdict: result.ok === 0 ? 'ERROR' : undefined,
      });
      report.note(
        `Each answer to / is ${kb(Buffer.byteLength(html))} of HTML${encoding ? ` sent as ${encoding} (${kb(sent)})` : ' sent uncompressed (the server compresses nothing)'}; the hello-world answer is 17 bytes of JSON. ` +
          `During the timed load the server process used ${num(cpu.serverMs / 10 / seconds)} % of a core (${ms(cpu.serverMs / Math.max(1, result.ok))} of CPU per page, PGlite included).` +
          (failures ? ` ${result.non2xx} non-2xx answers, ${result.errors} connection errors, ${result.timeouts} timeouts.` : ''),
      );
    } finally {
      await server.dispose();
    }
  },
};
