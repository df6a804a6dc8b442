/**
 * One SQL dialect, PostgreSQL, on two engines: an embedded PGlite database persisted under
 * DATA_DIR (the default) or a PostgreSQL server when DATABASE_URL is set. Both give the same
 * Kysely instance type and the same LISTEN/NOTIFY facility, so nothing above this file knows
 * which engine runs.
 */
import { createHash } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import {
  CamelCasePlugin,
  type DatabaseIntrospector,
  type Dialect,
  Kysely,
  PGliteDialect,
  PostgresDialect,
  type SchemaMetadata,
  sql,
  type TableMetadata,
  type UnknownRow,
} from 'kysely';
import pg from 'pg';
import type { DB } from './schema';

export type Engine = 'pglite' | 'postgres';

export type Db = Kysely<DB>;

export type NotificationHandler = (payload: string) => void;

export interface Database {
  readonly engine: Engine;
  readonly db: Db;
  /** Namespaced channel name (tests run several schemas on one server). */
  channel(name: string): string;
  /** Subscribe to a NOTIFY channel (pass a `channel()` name). Resolves once listening. */
  listen(channel: string, handler: NotificationHandler): Promise<() => Promise<void>>;
  /**
   * Embedded only: a consistent gzipped tar of the data directory (`parley backup`), taken while
   * holding the only connection (no transaction open) after a CHECKPOINT.
   */
  dumpDataDir?: () => Promise<Buffer>;
  /** Embedded only: the directory PGlite keeps its files in (absent in memory and on PostgreSQL). */
  readonly dataDir?: string;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** postgres:// URL; when absent, PGlite is used. */
  url?: string | undefined;
  /** PGlite data directory; absent means in memory. */
  dataDir?: string | undefined;
  /** An already open PGlite (tests load a migrated snapshot). */
  pglite?: PGlite;
  poolSize?: number;
  /** PostgreSQL schema to use as search_path (tests isolate themselves this way). */
  schema?: string;
  onError?: (error: Error) => void;
}

const INT8_OID = 20;

/**
 * A statement whose text starts with this comment is prepared once per connection on a PostgreSQL
 * server (named after a hash of its text) and then only bound and executed: the server parses and
 * plans it once instead of on every call. For hot statements with a bounded number of distinct
 * texts; PGlite runs them as any other.
 */
export const PREPARED = '/* prepared */ ';
/** Past this many prepared statements a connection runs further new texts unprepared. */
export const MAX_PREPARED_PER_CONNECTION = 256;

/** `pg.Client` that prepares the statements marked `PREPARED` (see above). */
class PreparingClient extends pg.Client {
  readonly #prepared = new Set<string>();

  // pg's query() has many overloads; Kysely calls query(text, values), the one this handles.
  override query(...args: unknown[]): never {
    const [text, values] = args;
    if (args.length === 2 && typeof text === 'string' && text.startsWith(PREPARED) && Array.isArray(values)) {
      const name = `parley_${createHash('sha1').update(text).digest('base64url')}`;
      if (this.#prepared.has(name) || this.#prepared.size < MAX_PREPARED_PER_CONNECTION) {
        this.#prepared.add(name);
        return (super.query as unknown as (config: pg.QueryConfig) => never).call(this, { name, text, values });
      }
    }
    return (super.query as unknown as (...a: unknown[]) => never).apply(this, args);
  }
}

type TextParser = (value: string) => unknown;

function typeParser(oid: number, format?: 'text' | 'binary'): TextParser {
  if (oid === INT8_OID) return Number;
  return pg.types.getTypeParser(oid, format === 'binary' ? 'binary' : 'text') as TextParser;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  return options.url ? openPostgres(options.url, options) : openPglite(options);
}

/**
 * jsonb columns that hold someone else's JSON (a workflow's step metadata, an automation's
 * config, an n8n workflow): returned exactly as stored. CamelCasePlugin maps the keys of nested
 * objects too, which is what our own JSON (job payloads, `jsonb_build_object` rows) relies on, but
 * would turn a workflow's `order_id` into `orderId`. Also the public events' envelopes an execution
 * keeps (`trigger_event`) and a template's `workflow_config`, whose triggers' filters are snake_case.
 */
const OPAQUE_JSON_COLUMNS = new Set(['config', 'metadata', 'n8n_workflow_json', 'trigger_event', 'workflow_config']);

/** Tables and columns are snake_case in SQL and camelCase in TypeScript; OPAQUE_JSON_COLUMNS' values are left alone. */
export class ParleyCamelCasePlugin extends CamelCasePlugin {
  protected override mapRow(row: UnknownRow): UnknownRow {
    const opaque = Object.keys(row).filter((key) => OPAQUE_JSON_COLUMNS.has(key));
    if (!opaque.length) return super.mapRow(row);
    const rest = { ...row };
    for (const key of opaque) delete rest[key];
    const mapped = super.mapRow(rest);
    for (const key of opaque) mapped[this.camelCase(key)] = row[key];
    return mapped;
  }
}

function kyselyOptions() {
  return { plugins: [new ParleyCamelCasePlugin()] };
}

/**
 * Kysely's PostgreSQL introspector lists the tables of every schema with
 * `has_schema_privilege(nspname, …)`, which fails with "schema … does not exist" when another
 * schema is dropped while it runs (parallel test files on one server, say) — and the migrator asks
 * it whether its own bookkeeping table exists. Parley only ever needs the tables of the schema it
 * works in, so that is all this introspector reads (names only; nothing uses the columns).
 */
class CurrentSchemaIntrospector implements DatabaseIntrospector {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Kysely hands introspectors an untyped instance
  constructor(private readonly db: Kysely<any>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string }>`select nspname as name from pg_catalog.pg_namespace`.execute(this.db);
    return rows;
  }

  async getTables(options: { withInternalKyselyTables?: boolean } = {}): Promise<TableMetadata[]> {
    const { rows } = await sql<{ name: string; schema: string; kind: string }>`
      select c.relname as name, ns.nspname as schema, c.relkind as kind
      from pg_catalog.pg_class c join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
      where ns.nspname = current_schema() and c.relkind in ('r', 'v', 'p', 'f')
      order by c.relname`.execute(this.db);
    return rows
      .filter((r) => options.withInternalKyselyTables || !r.name.startsWith('kysely_'))
      .map((r) => ({ name: r.name, schema: r.schema, isView: r.kind === 'v', isForeign: r.kind === 'f', columns: [] }));
  }
}

function currentSchemaIntrospection(dialect: Dialect): Dialect {
  return {
    createDriver: () => dialect.createDriver(),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => new CurrentSchemaIntrospector(db),
  };
}

async function openPglite(options: OpenDatabaseOptions): Promise<Database> {
  const pglite = options.pglite ?? new PGlite(options.dataDir ?? undefined);
  await pglite.waitReady;
  const db = new Kysely<DB>({ dialect: currentSchemaIntrospection(new PGliteDialect({ pglite })), ...kyselyOptions() });
  const prefix = options.schema ? `${options.schema}_` : '';
  return {
    engine: 'pglite',
    db,
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    channel: (name) => `${prefix}${name}`,
    async listen(channel, handler) {
      const unlisten = await pglite.listen(channel, handler);
      return async () => {
        if (!pglite.closed) await unlisten();
      };
    },
    dumpDataDir: () =>
      db.connection().execute(async (connection) => {
        await sql`checkpoint`.execute(connection);
        // PGlite holds its query lock while it writes the tar.
        return Buffer.from(await (await pglite.dumpDataDir('gzip')).arrayBuffer());
      }),
    async close() {
      await db.destroy();
      if (!pglite.closed) await pglite.close();
    },
  };
}

function assertIdentifier(name: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/u.test(name)) throw new Error(`Invalid identifier: ${name}`);
  return name;
}

async function openPostgres(url: string, options: OpenDatabaseOptions): Promise<Database> {
  const schema = options.schema ? assertIdentifier(options.schema) : undefined;
  const clientConfig: pg.ClientConfig = {
    connectionString: url,
    // int8 (counts, identities) as numbers, as PGlite returns them.
    types: { getTypeParser: typeParser as typeof pg.types.getTypeParser },
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  };
  if (schema) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`create schema if not exists ${schema}`);
    } finally {
      await admin.end();
    }
  }
  // Idle connections stay open for five minutes (pg's default closes them after ten seconds): a new
  // connection compiles and plans the hot-path functions again (the `*.sql.ts` routines), which a
  // burst after a short lull would pay on every connection.
  const pool = new pg.Pool({ ...clientConfig, Client: PreparingClient, max: options.poolSize ?? 10, idleTimeoutMillis: 5 * 60_000 });
  pool.on('error', (error) => options.onError?.(error));
  const db = new Kysely<DB>({ dialect: currentSchemaIntrospection(new PostgresDialect({ pool })), ...kyselyOptions() });
  const listener = new PgListener(clientConfig, options.onError);
  const prefix = schema ? `${schema}_` : '';
  return {
    engine: 'postgres',
    db,
    channel: (name) => `${prefix}${name}`,
    listen: (channel, handler) => listener.listen(channel, handler),
    async close() {
      await listener.close();
      await db.destroy();
    },
  };
}

/**
 * One dedicated connection per process for LISTEN, shared by every subscriber. Reconnects with
 * backoff and re-subscribes; a notification missed while disconnected is covered by the callers'
 * own polling (jobs poll as a fallback), so LISTEN is a latency optimisation, never the only path.
 */
class PgListener {
  #client: pg.Client | undefined;
  #connecting: Promise<pg.Client> | undefined;
  #handlers = new Map<string, Set<NotificationHandler>>();
  #closed = false;
  #retryMs = 100;

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly onError?: (error: Error) => void,
  ) {}

  async listen(channel: string, handler: NotificationHandler): Promise<() => Promise<void>> {
    assertIdentifier(channel);
    let set = this.#handlers.get(channel);
    if (!set) {
      set = new Set();
      this.#handlers.set(channel, set);
      const client = await this.#connect();
      await client.query(`listen ${channel}`);
    }
    set.add(handler);
    return async () => {
      const handlers = this.#handlers.get(channel);
      handlers?.delete(handler);
      if (handlers && handlers.size === 0) {
        this.#handlers.delete(channel);
        if (this.#client && !this.#closed) await this.#client.query(`unlisten ${channel}`).catch(() => undefined);
      }
    };
  }

  async #connect(): Promise<pg.Client> {
    if (this.#client) return this.#client;
    this.#connecting ??= (async () => {
      const client = new pg.Client(this.config);
      client.on('notification', (msg) => {
        for (const h of this.#handlers.get(msg.channel) ?? []) h(msg.payload ?? '');
      });
      client.on('error', (error) => {
        this.onError?.(error);
        this.#reconnect(client);
      });
      client.on('end', () => this.#reconnect(client));
      await client.connect();
      this.#client = client;
      this.#retryMs = 100;
      return client;
    })().finally(() => {
      this.#connecting = undefined;
    });
    return this.#connecting;
  }

  #reconnect(dead: pg.Client): void {
    if (this.#closed || this.#client !== dead) return;
    this.#client = undefined;
    this.#scheduleReconnect();
  }

  #scheduleReconnect(): void {
    const delay = this.#retryMs;
    this.#retryMs = Math.min(this.#retryMs * 2, 10_000);
    setTimeout(() => {
      if (this.#closed) return;
      this.#connect()
        .then(async (client) => {
          for (const channel of this.#handlers.keys()) await client.query(`listen ${channel}`);
        })
        .catch((error: unknown) => {
          this.onError?.(error as Error);
          this.#client = undefined;
          this.#scheduleReconnect();
        });
    }, delay).unref();
  }

  async close(): Promise<void> {
    this.#closed = true;
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => undefined);
  }
}
