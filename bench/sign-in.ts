/**
 * Sign-in throughput beside the cost of the password hash it is built on. A sign-in verifies one
 * scrypt hash (N=2^15, r=8, p=1: 32 MiB per call), so the rate the hashing alone allows on this
 * machine is the ceiling the HTTP figure is compared with; the bare Fastify route shows what the
 * HTTP layer could do without it.
 */
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { pino } from 'pino';
import { buildApp, type ParleyApp } from '../server/app';
import { loadConfig } from '../server/config';
import { type Database, openDatabase } from '../server/db/database';
import { migrateToLatest } from '../server/db/migrate';
import { hashPassword, type PasswordObserver, SCRYPT_PARAMS, verifyPassword } from '../server/lib/password-hash';
import { SQL_ROUTINES } from '../server/routines';
import { compareTimings, seededRandom } from './lib/compare';
import type { BenchContext, BenchGroup } from './lib/context';
import { describe, load, type LoadResult } from './lib/load';
import { dropBenchDatabase, freshBenchDatabase } from './lib/postgres';
import { type Child, freePort, LOOPBACK, spawnNode, waitFor200 } from './lib/process';
import type { GroupReporter } from './lib/report';
import { median, ms, num, sleep } from './lib/stats';
import { tempDir } from './lib/tmp';

// Five: the lockout lets one account have at most 5 passwords checked at once (auth/lockout.ts), and
// this load signs one account in; 5 in flight still keep every libuv thread hashing.
const CONNECTIONS = 5;
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
    // The warm-up's last requests are still being answered when autocannon stops; they would take
    // lockout attempts from the measured run's first requests (5 at once per account).
    await sleep(2_000);
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
    const timings = await enumerationTimings(url, EMAIL, engine);
    reportTimings(report, engine, 'Sign-up', timings.signUp);
    reportTimings(report, engine, 'Forgot-password', timings.forgot);
  } finally {
    await child.stop();
  }
}


/** Counts password checks (password-hash.ts reports each one to the app's observer). */
class VerificationCounter implements PasswordObserver {
  verifications = 0;
  verified(): void {
    this.verifications += 1;
  }
}

interface InProcessApp {
  app: ParleyApp;
  url: string;
  close(): Promise<void>;
}

/** Parley built in the bench process (so its password observer can be read), listening on loopback. */
async function startInProcess(database: Database, dataDir: string, observer: PasswordObserver): Promise<InProcessApp> {
  const port = await freePort();
  const url = `http://${LOOPBACK}:${port}`;
  const config = loadConfig({
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: LOOPBACK,
    PUBLIC_URL: url,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    AUTH_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
    SECRETS_KEY: 'bench-secrets-key-bench-secrets-key-012345',
    AUTH_RATE_LIMIT_PER_MINUTE: '100000000',
    WEB_DIST_DIR: path.join(dataDir, 'no-web'),
    DEMO_WIDGET: 'false',
    PARLEY_WORD_VECTORS: 'off',
  });
  const app = await buildApp({ config, database, logger: pino({ level: 'warn' }), passwordObserver: observer });
  await app.server.listen({ port, host: LOOPBACK });
  return { app, url, close: () => app.close() };
}

async function post(url: string, body: unknown): Promise<{ status: number; text: string }> {
  const response = await fetch(url, { method: 'POST', headers: CSRF_HEADERS, body: JSON.stringify(body) });
  return { status: response.status, text: await response.text() };
}

const LOCKOUT_ATTEMPTS = 100;
const LOCKED_TEXT = 'Too many failed attempts. Please try again in 30 minute(s).';

/** 100 concurrent wrong passwords for one e-mail, spread over the given instances; the checks made. */
async function lockoutBurst(instances: { app: InProcessApp; counter: VerificationCounter }[]): Promise<{ verifications: number; answers: string }> {
  const email = `lockout-${Date.now()}@example.com`;
  await instances[0]!.app.app.services.users.createUser({ email, password: PASSWORD, role: 'client', name: 'Lock Out' });
  for (const { counter } of instances) counter.verifications = 0;
  const answers = await Promise.all(
    Array.from({ length: LOCKOUT_ATTEMPTS }, (_, i) =>
      post(`${instances[i % instances.length]!.app.url}/api/v1/auth/sign-in`, { email, password: 'Wr0ng!Bench#Guess-2026' }),
    ),
  );
  const byStatus = new Map<string, number>();
  for (const a of answers) {
    const key = a.status === 429 && a.text.includes(LOCKED_TEXT) ? '429 locked (30 min)' : String(a.status);
    byStatus.set(key, (byStatus.get(key) ?? 0) + 1);
  }
  return {
    verifications: instances.reduce((sum, i) => sum + i.counter.verifications, 0),
    answers: [...byStatus].map(([k, n]) => `${n} × ${k}`).join(', '),
  };
}

const TIMING_ROUNDS = 50;
const TIMING_WARMUP = 5;

const PAUSE_MS = 40;

/**
 * Sign-up and forgot-password for a known and an unknown address against the server process,
 * interleaved in random order (each round does both, in a random order), with a pause before each
 * request so the job the previous one enqueued has run.
 */
async function enumerationTimings(url: string, known: string, engine: string): Promise<{ signUp: [number[], number[]]; forgot: [number[], number[]] }> {
  const random = seededRandom(2026);
  const signUp: [number[], number[]] = [[], []];
  const forgot: [number[], number[]] = [[], []];
  let fresh = 0;
  const timed = async (route: string, body: unknown, expected: number): Promise<number> => {
    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    const started = performance.now();
    const answer = await post(`${url}${route}`, body);
    const elapsed = performance.now() - started;
    if (answer.status !== expected) throw new Error(`${route} answered ${answer.status}: ${answer.text.slice(0, 200)}`);
    return elapsed;
  };
  for (let round = 0; round < TIMING_WARMUP + TIMING_ROUNDS; round++) {
    const keep = round >= TIMING_WARMUP;
    for (const isKnown of random() < 0.5 ? [true, false] : [false, true]) {
      fresh += 1;
      const email = isKnown ? known : `new-${fresh}-${engine.toLowerCase()}@example.com`;
      const t = await timed('/api/v1/auth/sign-up', { name: 'Some One', email, password: PASSWORD, confirmPassword: PASSWORD }, 201);
      if (keep) signUp[isKnown ? 0 : 1].push(t);
    }
    for (const isKnown of random() < 0.5 ? [true, false] : [false, true]) {
      fresh += 1;
      const email = isKnown ? known : `nobody-${fresh}-${engine.toLowerCase()}@example.com`;
      const t = await timed('/api/v1/auth/forgot-password', { email }, 200);
      if (keep) forgot[isKnown ? 0 : 1].push(t);
    }
  }
  return { signUp, forgot };
}

function reportTimings(report: GroupReporter, engine: string, label: string, [known, unknown]: [number[], number[]]): void {
  const c = compareTimings(known, unknown);
  const signed = (x: number) => `${x >= 0 ? '+' : '−'}${num(Math.abs(x))}`;
  report.row({
    figure: `${label}, ${engine}: median known vs unknown address (${known.length} + ${unknown.length} interleaved)`,
    measured:
      `${ms(c.medianA)} vs ${ms(c.medianB)}: ${signed(c.difference)} ms, 95 % CI [${signed(c.ci[0])}, ${signed(c.ci[1])}] ms; ` +
      `Mann–Whitney p = ${c.p.toFixed(2)} → ${c.withinNoise ? 'within noise' : 'DIFFERENT'}`,
    value: c.withinNoise ? 1 : 0,
    goal: { text: 'difference within noise (p ≥ 0.05, CI contains 0)', min: 1 },
  });
}

/** The lockout figures against Parley in the bench process, on one engine. */
async function measureAuthFigures(report: GroupReporter, engine: 'PGlite' | 'PostgreSQL', open: () => Promise<Database>, dataDir: string): Promise<void> {
  const database = await open();
  await migrateToLatest(database.db, { routines: SQL_ROUTINES });
  const counter = new VerificationCounter();
  const first = await startInProcess(database, dataDir, counter);
  const opened: Database[] = [database];
  const apps: InProcessApp[] = [first];
  try {
    const burst = await lockoutBurst([{ app: first, counter }]);
    report.row({
      figure: `Lockout under ${LOCKOUT_ATTEMPTS} concurrent attempts: password verifications performed, ${engine}`,
      measured: `${burst.verifications} (answers: ${burst.answers})`,
      value: burst.verifications,
      goal: { text: '5', min: 5, max: 5 },
    });
    if (engine === 'PostgreSQL') {
      const otherDatabase = await open();
      opened.push(otherDatabase);
      const otherCounter = new VerificationCounter();
      const second = await startInProcess(otherDatabase, dataDir, otherCounter);
      apps.push(second);
      const shared = await lockoutBurst([
        { app: first, counter },
        { app: second, counter: otherCounter },
      ]);
      report.row({
        figure: `Lockout under ${LOCKOUT_ATTEMPTS} concurrent attempts, two instances on one database (alternating): password verifications performed`,
        measured: `${shared.verifications} (answers: ${shared.answers})`,
        value: shared.verifications,
        goal: { text: '5', min: 5, max: 5 },
      });
    }
  } finally {
    for (const app of apps.reverse()) await app.close();
    for (const db of opened.reverse()) await db.close();
  }
}

export const signIn: BenchGroup = {
  id: 'sign-in',
  title: 'Sign-in and password hashing',
  method: [
    `Hashing: \`hashPassword\` / \`verifyPassword\` from server/lib/password-hash.ts in the bench process, median of 8 sequential calls; "per second on one core" is 1000 ÷ the verify median; the saturated figure runs as many verifies at once as the libuv pool has threads (scrypt runs there) for 3 s.`,
    `Sign-in: \`node scripts/start.mjs\` on a fresh database with ADMIN_EMAIL/ADMIN_PASSWORD set (that admin signs in), AUTH_RATE_LIMIT_PER_MINUTE=100000000, LOG_LEVEL=warn. autocannon ${CONNECTIONS} connections (the lockout checks at most 5 passwords of one account at once; until issue 10 this ran 20), ${WARMUP_S} s warm-up, a 2 s pause, then ${DURATION_S} s, body {email, password}, CSRF double-submit (cookie parley_csrf=x, header x-csrf-token: x). req/s counts 2xx answers only; each one created a session row.`,
    `Baseline: the bare Fastify hello-world route (bench/fixtures/hello-fastify.mjs) in its own process, same connections and duration.`,
    'autocannon runs in the bench process and shares the two cores with the server: these are noisy, compare within one run.',
    `Lockout: Parley built in the bench process (\`buildApp\`, so the password observer of server/lib/password-hash.ts can count the checks) on a fresh database, listening on loopback; ${LOCKOUT_ATTEMPTS} sign-ins with a wrong password for one account sent at once with fetch. On PostgreSQL also with two such instances on the same database (their own pools), the requests alternating between them. Goal (issue 10): 5 checks, whatever the concurrency.`,
    `Enumeration timing: the sign-in server process above, after its load; ${TIMING_WARMUP} warm-up rounds then ${TIMING_ROUNDS}, each round a sign-up for an existing address (the admin's) and for a new one, then a forgot-password for the admin's address and an unknown one, each pair in random order (seeded), ${PAUSE_MS} ms pause before each request (its predecessor's job has run). Time = fetch to the full answer. Verdict: "within noise" when the Mann–Whitney U test gives p ≥ 0.05 and the 95 % bootstrap interval (4,000 resamples) of the difference of medians contains 0 (bench/lib/compare.ts).`,
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
    const authDir = tempDir('sign-in-auth');
    try {
      await measureAuthFigures(report, 'PGlite', () => openDatabase({ dataDir: path.join(authDir, 'pglite') }), authDir);
    } finally {
      fs.rmSync(authDir, { recursive: true, force: true });
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
      const authDir = tempDir('sign-in-auth');
      try {
        const url = await freshBenchDatabase();
        await measureAuthFigures(report, 'PostgreSQL', () => openDatabase({ url, poolSize: 10 }), authDir);
      } finally {
        await dropBenchDatabase();
        fs.rmSync(authDir, { recursive: true, force: true });
      }
    } else {
      report.row({ figure: 'Sign-in, PostgreSQL', measured: 'PostgreSQL not reachable (see Machine)', verdict: 'skipped' });
      report.row({ figure: 'Lockout and enumeration timing, PostgreSQL', measured: 'PostgreSQL not reachable (see Machine)', verdict: 'skipped' });
    }
  },
};
