/**
 * Sign-in throughput beside the cost of the password hash it is built on. A sign-in verifies one
 * scrypt hash (N=2^15, r=8, p=1: 32 MiB per call), so the rate the hashing alone allows on this
 * machine is the ceiling the HTTP figure is compared with; the bare Fastify route shows what the
 * HTTP layer could do without it.
 */
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { hashPassword, SCRYPT_PARAMS, verifyPassword } from '../server/modules/auth/password-hash';
import type { BenchContext, BenchGroup } from './lib/context';
import { describe, load, type LoadResult } from './lib/load';
import { dropBenchDatabase, freshBenchDatabase } from './lib/postgres';
import { type Child, freePort, LOOPBACK, spawnNode, waitFor200 } from './lib/process';
import type { GroupReporter } from './lib/report';
import { median, ms, num } from './lib/stats';
import { tempDir } from './lib/tmp';

const CONNECTIONS = 20;
const DURATION_S = 10;
const WARMUP_S = 2;
const EMAIL = 'bench-admin@example.com';
const PASSWORD = 'Bench!Sign-In#2026-Strong';
const CSRF_HEADERS = { cookie: 'parley_csrf=x', 'x-csrf-token': 'x', 'content-type': 'application/json' };

interface HashCost {
  hashMs: number;
  verifyMs: number;
  /** Verifies per second with the libuv pool saturated (every core). */
  parallelPerSecond: number;
  poolSize: number;
}

async function hashCost(): Promise<HashCost> {
  const stored = await hashPassword(PASSWORD); // warm-up
  const hashes: number[] = [];
  const verifies: number[] = [];
  for (let i = 0; i < 8; i++) {
    let t = performance.now();
    await hashPassword(PASSWORD);
    hashes.push(performance.now() - t);
    t = performance.now();
    if (!(await verifyPassword({ hash: stored, password: PASSWORD }))) throw new Error('verifyPassword rejected the right password');
    verifies.push(performance.now() - t);
  }
  // Saturate the libuv pool (node:crypto scrypt runs there) for ~3 s.
  const poolSize = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
  let done = 0;
  const started = performance.now();
  const until = started + 3_000;
  await Promise.all(
    Array.from({ length: poolSize }, async () => {
      while (performance.now() < until) {
        await verifyPassword({ hash: stored, password: PASSWORD });
        done++;
      }
    }),
  );
  return { hashMs: median(hashes), verifyMs: median(verifies), parallelPerSecond: (done * 1000) / (performance.now() - started), poolSize };
}

async function startServer(cwd: string, env: Record<string, string | undefined>): Promise<{ child: Child; url: string }> {
  const port = await freePort();
  const child = spawnNode(['scripts/start.mjs'], {
    cwd,
    env: {
      DATABASE_URL: undefined,
      PUBLIC_URL: undefined,
      AUTH_SECRET: undefined,
      NODE_ENV: 'production',
      ...env,
      PORT: String(port),
      HOST: LOOPBACK,
      ADMIN_EMAIL: EMAIL,
      ADMIN_PASSWORD: PASSWORD,
      AUTH_RATE_LIMIT_PER_MINUTE: '100000000',
      // Request logging off, as the baseline has none; warnings and errors still print.
      LOG_LEVEL: 'warn',
    },
  });
  const url = `http://${LOOPBACK}:${port}`;
  try {
    await waitFor200(`${url}/`, child, 60_000, 20);
  } catch (error) {
    await child.stop();
    throw error;
  }
  return { child, url };
}

async function signInLoad(url: string, durationSeconds: number): Promise<LoadResult> {
  return load({
    url: `${url}/api/v1/auth/sign-in`,
    method: 'POST',
    connections: CONNECTIONS,
    durationSeconds,
    headers: CSRF_HEADERS,
    body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
  });
}

async function measureSignIn(
  report: GroupReporter,
  engine: string,
  cwd: string,
  env: Record<string, string | undefined>,
  baseline: string,
  ceiling: number,
): Promise<void> {
  const { child, url } = await startServer(cwd, env);
  try {
    const probe = await fetch(`${url}/api/v1/auth/sign-in`, {
      method: 'POST',
      headers: CSRF_HEADERS,
      body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
    });
    const body = await probe.text();
    if (probe.status !== 200 || !probe.headers.getSetCookie().some((c) => c.includes('session_token'))) {
      throw new Error(`A single sign-in did not succeed (${probe.status}): ${body.slice(0, 300)}`);
    }
    await signInLoad(url, WARMUP_S);
    const result = await signInLoad(url, DURATION_S);
    report.row({
      figure: `Sign-in POST /api/v1/auth/sign-in, ${engine}, ${CONNECTIONS} connections, ${DURATION_S} s`,
      measured: describe(result),
      baseline,
      verdict: result.ok === 0 ? 'ERROR' : undefined,
    });
    report.note(
      `Sign-in on ${engine} ran at ${num((100 * result.rps) / ceiling)} % of what the hashing alone allows on this machine (${num(ceiling)} verifies/s); ` +
        `with ${CONNECTIONS} requests always in flight that rate alone means ${ms((CONNECTIONS / ceiling) * 1000)} mean latency (Little’s law), so the latency is queueing for the hash.` +
        (result.non2xx + result.errors ? ` ${result.non2xx} non-2xx answers and ${result.errors} connection errors.` : ''),
    );
  } finally {
    await child.stop();
  }
}

export const signIn: BenchGroup = {
  id: 'sign-in',
  title: 'Sign-in and password hashing',
  method: [
    `Hashing: \`hashPassword\` / \`verifyPassword\` from server/modules/auth/password-hash.ts in the bench process, median of 8 sequential calls; "per second on one core" is 1000 ÷ the verify median; the saturated figure runs as many verifies at once as the libuv pool has threads (scrypt runs there) for 3 s.`,
    `Sign-in: \`node scripts/start.mjs\` on a fresh database with ADMIN_EMAIL/ADMIN_PASSWORD set (that admin signs in), AUTH_RATE_LIMIT_PER_MINUTE=100000000, LOG_LEVEL=warn. autocannon ${CONNECTIONS} connections, ${WARMUP_S} s warm-up then ${DURATION_S} s, body {email, password}, CSRF double-submit (cookie parley_csrf=x, header x-csrf-token: x). req/s counts 2xx answers only; each one created a session row.`,
    `Baseline: the bare Fastify hello-world route (bench/fixtures/hello-fastify.mjs) in its own process, same connections and duration.`,
    'autocannon runs in the bench process and shares the two cores with the server: these are noisy, compare within one run.',
  ],
  async run(ctx: BenchContext, report: GroupReporter) {
    const cost = await hashCost();
    const { N, r, p } = SCRYPT_PARAMS;
    const params = `scrypt N=2^${Math.log2(N)}, r=${r}, p=${p}, ${(128 * N * r) / 2 ** 20} MiB`;
    report.row({ figure: `hashPassword (${params})`, measured: `${num(cost.hashMs)} ms per call` });
    report.row({ figure: 'verifyPassword, one core', measured: `${num(cost.verifyMs)} ms per call = ${num(1000 / cost.verifyMs)} per second` });
    report.row({
      figure: `verifyPassword, all ${os.availableParallelism()} cores (${cost.poolSize} at once)`,
      measured: `${num(cost.parallelPerSecond)} per second`,
    });

    const tree = await ctx.tree();
    const port = await freePort();
    const hello = spawnNode([path.join(ctx.repoRoot, 'bench/fixtures/hello-fastify.mjs')], { cwd: ctx.repoRoot, env: { PORT: String(port), HOST: LOOPBACK } });
    let bare: LoadResult;
    try {
      const url = `http://${LOOPBACK}:${port}/`;
      await waitFor200(url, hello, 30_000);
      await load({ url, connections: CONNECTIONS, durationSeconds: WARMUP_S });
      bare = await load({ url, connections: CONNECTIONS, durationSeconds: DURATION_S });
    } finally {
      await hello.stop();
    }
    const baseline = `hello world ${num(bare.rps)} req/s, p99 ${num(bare.p99)} ms`;
    report.progress(`bare Fastify: ${describe(bare)}`);

    const dataDir = tempDir('sign-in');
    try {
      await measureSignIn(report, 'PGlite', tree.dir, { DATA_DIR: dataDir }, baseline, cost.parallelPerSecond);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }

    if (await ctx.postgres()) {
      const pgDataDir = tempDir('sign-in');
      try {
        const url = await freshBenchDatabase();
        await measureSignIn(report, 'PostgreSQL', tree.dir, { DATA_DIR: pgDataDir, DATABASE_URL: url }, baseline, cost.parallelPerSecond);
      } finally {
        await dropBenchDatabase();
        fs.rmSync(pgDataDir, { recursive: true, force: true });
      }
    } else {
      report.row({ figure: 'Sign-in, PostgreSQL', measured: 'PostgreSQL not reachable (see Machine)', verdict: 'skipped' });
    }
  },
};
