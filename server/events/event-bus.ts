/**
 * Domain events. `publish(trx, …)` runs inside the transaction that made the change and, in the
 * same statement (`parley_publish`, events.sql.ts):
 *  - inserts the jobs of the subscriptions that match — durable work (the AI agent, automations)
 *    exists exactly when the change committed;
 *  - NOTIFYs the events, which every Parley instance on the database receives once the
 *    transaction commits, for live subscribers (the realtime hub).
 * Subscriptions are data — one table of them, not a copied handler per event — so the database
 * functions of the hot paths (MessagingService) publish the same way without a round trip back.
 */
import { type RawBuilder, sql } from 'kysely';
import type { Logger } from 'pino';
import { type Database, type Db, PREPARED } from '../db/database';
import type { JobDefinition, JobPayloadInput } from '../jobs/define-job';
import type { AnyDomainEvent, DomainEvent, DomainEventName, DomainEvents, PerformedBy } from './domain-events';

export type LiveHandler = (event: AnyDomainEvent) => void;

/**
 * "When `event` is published (and its payload has the values in `where`, and it was not performed
 * by one of `unlessPerformedBy`), enqueue `job` with the payload's `keys`."
 */
export interface JobSubscription<K extends DomainEventName, J extends JobDefinition, Keys extends keyof DomainEvents[K] & string> {
  event: K;
  where?: Partial<DomainEvents[K]>;
  unlessPerformedBy?: PerformedBy['kind'][];
  job: J;
  keys: Keys[];
  /**
   * Also put the event's name, who performed it and its time in the job's payload (`event`,
   * `performedBy`, `at`):
   * for a subscriber that turns several events into records (the public events' outbox).
   */
  withEvent?: boolean;
  /**
   * SQL functions (no arguments, returning boolean, defined in a module's routines) that say
   * whether the job is wanted at all: it is enqueued only while one of them returns true. They are
   * evaluated once per publication, in its statement (so they see what that statement sees), and
   * only when one of its events matches. Omitted: always wanted.
   */
  gate?: readonly string[];
  /**
   * The job runs no sooner than this long after the event (never claimed where it is inserted):
   * for a `batched` job, so that the events of a burst wait together and one handler takes them
   * all in one transaction instead of one each.
   */
  delayMs?: number;
  /**
   * The payload key whose value coalesces the jobs: while a job of this kind with the same value
   * is queued (not yet running), another is not inserted — the queued one will do the work of
   * both. For a handler that reads the current state rather than the event; not with `withEvent`.
   */
  coalesce?: Keys;
  /**
   * An SQL function (jsonb → void, defined in a module's routines) that gets the matching events'
   * payloads (the `keys`, as a JSON array; one call per publication) in the publishing statement,
   * to record what is to be done in a table of its own; the job is then queued once, with an
   * empty payload, while none of its name is queued (coalesced on '*'), and takes everything
   * recorded. For work per key that is cheaper done for many keys at once than as one job each
   * (a job row costs three writes to `jobs` and its indexes). Not with `withEvent` or `coalesce`.
   */
  collect?: string;
}

/** What `withEvent` adds to a job's payload. */
export interface EventOfJob<K extends DomainEventName = DomainEventName> {
  event: K;
  performedBy: PerformedBy;
  /** ISO time of publication. */
  at: string;
}

/** A subscription as the database function reads it. */
interface StoredSubscription {
  event: DomainEventName;
  where: Record<string, unknown>;
  unlessPerformedBy: string[];
  job: string;
  maxAttempts: number;
  keys: string[];
  withEvent: boolean;
  gate: string[] | null;
  delayMs: number;
  coalesce: string | null;
  collect: string | null;
}

/** What a database function needs to publish events the way `publish` does. */
export interface PublishContext {
  subscriptions: readonly StoredSubscription[];
  eventChannel: string;
  jobChannel: string;
}

const DEFAULT_MAX_ATTEMPTS = 5;

/** An event before publication gives it its time. */
export type UnstampedEvent = { [K in DomainEventName]: Omit<DomainEvent<K>, 'at'> }[DomainEventName];

export class EventBus {
  readonly #database: Database;
  readonly #logger: Logger;
  readonly #jobChannel: string;
  readonly #subscriptions: StoredSubscription[] = [];
  readonly #definitions = new Map<DomainEventName, JobDefinition[]>();
  readonly #live = new Set<LiveHandler>();
  #unlisten: (() => Promise<void>) | undefined;

  constructor(database: Database, logger: Logger, options: { jobChannel: string }) {
    this.#database = database;
    this.#logger = logger.child({ component: 'events' });
    this.#jobChannel = options.jobChannel;
  }

  get channel(): string {
    return this.#database.channel('parley_events');
  }

  /** Enqueues `job` in the publishing transaction of every matching event. */
  subscribe<K extends DomainEventName, J extends JobDefinition, Keys extends keyof DomainEvents[K] & string, C extends string | undefined = undefined>(
    subscription: JobSubscription<K, J, Keys> & { collect?: C } & ([C] extends [string]
        ? // A collected subscription's job gets an empty payload.
          Record<string, never> extends JobPayloadInput<J>
          ? unknown
          : never
        : Pick<DomainEvents[K], Keys> & EventOfJob<K> extends JobPayloadInput<J>
          ? unknown
          : never),
  ): void {
    if (subscription.collect !== undefined) {
      if (!/^[a-z_][a-z0-9_]*$/u.test(subscription.collect)) throw new Error(`collect: "${subscription.collect}" is not a function name`);
      if (subscription.withEvent || subscription.coalesce) throw new Error('collect: not with withEvent or coalesce');
    }
    const stored: StoredSubscription = {
      event: subscription.event,
      where: { ...subscription.where },
      unlessPerformedBy: [...(subscription.unlessPerformedBy ?? [])],
      job: subscription.job.name,
      maxAttempts: subscription.job.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      keys: [...subscription.keys],
      withEvent: subscription.withEvent ?? false,
      gate: subscription.gate ? [...subscription.gate] : null,
      delayMs: Math.max(0, Math.round(subscription.delayMs ?? 0)),
      coalesce: subscription.coalesce ?? null,
      collect: subscription.collect ?? null,
    };
    this.#subscriptions.push(stored);
    // Only a job that may be claimed where it is inserted is worth a local slot: a delayed,
    // coalesced or collected one never is (parley_insert_jobs), and a slot reserved for it would
    // only be held from the jobs that are, until the publication ends.
    if (stored.delayMs === 0 && stored.coalesce === null && stored.collect === null) {
      const definitions = this.#definitions.get(stored.event) ?? [];
      if (!definitions.includes(subscription.job)) definitions.push(subscription.job);
      this.#definitions.set(stored.event, definitions);
    }
  }

  /**
   * The jobs that subscriptions to these events may enqueue and claim at once (to reserve local
   * slots for): not those of a delayed, coalesced or collected subscription.
   */
  jobsFor(names: readonly DomainEventName[]): JobDefinition[] {
    return [...new Set(names.flatMap((name) => this.#definitions.get(name) ?? []))];
  }

  get publishContext(): PublishContext {
    return { subscriptions: this.#subscriptions, eventChannel: this.channel, jobChannel: this.#jobChannel };
  }

  async publish<K extends DomainEventName>(trx: Db, name: K, payload: DomainEvents[K], performedBy: PerformedBy): Promise<void> {
    await this.publishMany(trx, [{ name, payload, performedBy } as UnstampedEvent]);
  }

  /** Several events (and their subscribers' jobs) in one statement. */
  async publishMany(trx: Db, events: readonly UnstampedEvent[]): Promise<void> {
    if (events.length === 0) return;
    await sql`${sql.raw(PREPARED)}select ${this.publishCall(events)}`.execute(trx);
  }

  /**
   * The SQL expression that publishes `events` (`parley_publish(…)`), for a hot path that makes its
   * change and publishes in ONE statement (a data-modifying CTE selecting this): the events are
   * stored, their subscribers' jobs queued and the live notification sent exactly when that
   * statement commits.
   */
  publishCall(events: readonly UnstampedEvent[]): RawBuilder<unknown> {
    const at = new Date().toISOString();
    const stamped = events.map((e) => ({ ...e, at }));
    return sql`parley_publish(${JSON.stringify(stamped)}::jsonb, ${JSON.stringify(this.#subscriptions)}::jsonb, ${this.channel}, ${this.#jobChannel})`;
  }

  /** Receives every event after commit, from this instance and every other one. */
  async listen(handler: LiveHandler): Promise<() => void> {
    this.#live.add(handler);
    this.#unlisten ??= await this.#database.listen(this.channel, (payload) => this.#dispatch(payload));
    return () => {
      this.#live.delete(handler);
    };
  }

  #dispatch(payload: string): void {
    let events: AnyDomainEvent[];
    try {
      const parsed = JSON.parse(payload) as AnyDomainEvent | AnyDomainEvent[];
      events = Array.isArray(parsed) ? parsed : [parsed];
    } catch (error) {
      this.#logger.warn({ err: error }, 'unreadable event notification');
      return;
    }
    for (const event of events) {
      for (const handler of this.#live) {
        try {
          handler(event);
        } catch (error) {
          this.#logger.error({ err: error, event: event.name }, 'live event handler failed');
        }
      }
    }
  }

  async close(): Promise<void> {
    this.#live.clear();
    await this.#unlisten?.();
    this.#unlisten = undefined;
  }
}
