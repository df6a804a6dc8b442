/**
 * The machine's PostgreSQL server, for the figures that run on both engines. The bench owns its
 * databases — `parley_bench`, and any other name a group passes (`parley_bench_insights`) — created
 * empty for each use and dropped afterwards. Loopback only.
 */
import pg from 'pg';

export const BENCH_DATABASE = 'parley_bench';

/** A URL to a database we may connect to for CREATE/DROP DATABASE (BENCH_DATABASE_URL overrides). */
export const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

function assertLoopback(url: string): void {
  const host = new URL(url).hostname;
  if (!['127.0.0.1', 'localhost', '[::1]', '::1'].includes(host)) {
    throw new Error(`The bench only talks to loopback addresses; BENCH_DATABASE_URL points at ${host}`);
  }
}

async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  assertLoopback(ADMIN_URL);
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3_000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** The server's version string, or undefined (with the reason) when it cannot be reached. */
export async function postgresVersion(): Promise<{ version?: string; error?: string }> {
  try {
    const version = await withAdmin(async (c) => (await c.query<{ v: string }>("select current_setting('server_version') as v")).rows[0]?.v);
    return { version: version ?? 'unknown' };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/** A database name the bench may own: `parley_bench` or `parley_bench_<word>` (it is put in SQL as is). */
function checkedName(name: string): string {
  if (!/^parley_bench(_[a-z0-9]+)*$/u.test(name)) throw new Error(`Not a bench database name: ${name}`);
  return name;
}

export function benchDatabaseUrl(name = BENCH_DATABASE): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${checkedName(name)}`;
  return url.toString();
}

/** Drops (closing its connections) and re-creates `parley_bench` (or the bench database named); returns its URL. */
export async function freshBenchDatabase(name = BENCH_DATABASE): Promise<string> {
  const database = checkedName(name);
  await withAdmin(async (c) => {
    await c.query(`drop database if exists ${database} with (force)`);
    await c.query(`create database ${database}`);
  });
  return benchDatabaseUrl(database);
}

export async function dropBenchDatabase(name = BENCH_DATABASE): Promise<void> {
  const database = checkedName(name);
  await withAdmin(async (c) => {
    await c.query(`drop database if exists ${database} with (force)`);
  });
}
