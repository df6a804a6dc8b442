/**
 * Domain events. `publish(trx, …)` runs inside the transaction that made the change:
 *  - transactional subscribers run first, in that transaction — the place to enqueue durable work
 *    (the AI agent, automations, outbound sends), so work exists exactly when the change committed;
 *  - then a `pg_notify` carries the event to every Parley instance on the database once the
 *    transaction commits, for live subscribers (the realtime hub).
 * One subscription table instead of a copied handler per event.
 */
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Database, Db } from '../db/database';
import type { AnyDomainEvent, DomainEvent, DomainEventName, DomainEvents, PerformedBy } from './domain-events';

export type TransactionalHandler<K extends DomainEventName> = (trx: Db, event: DomainEvent<K>) => Promise<void>;
export type LiveHandler = (event: AnyDomainEvent) => void;

export class EventBus {
  readonly #database: Database;
  readonly #logger: Logger;
  readonly #handlers = new Map<DomainEventName, TransactionalHandler<DomainEventName>[]>();
  readonly #live = new Set<LiveHandler>();
  #unlisten: (() => Promise<void>) | undefined;

  constructor(database: Database, logger: Logger) {
    this.#database = database;
    this.#logger = logger.child({ component: 'events' });
  }

  get channel(): string {
    return this.#database.channel('parley_events');
  }

  /** Runs `handler` inside the publishing transaction of every `name` event. */
  on<K extends DomainEventName>(name: K, handler: TransactionalHandler<K>): void {
    const list = this.#handlers.get(name) ?? [];
    list.push(handler as unknown as TransactionalHandler<DomainEventName>);
    this.#handlers.set(name, list);
  }

  async publish<K extends DomainEventName>(trx: Db, name: K, payload: DomainEvents[K], performedBy: PerformedBy): Promise<void> {
    const event = { name, payload, performedBy, at: new Date().toISOString() } as DomainEvent<K>;
    for (const handler of this.#handlers.get(name) ?? []) await handler(trx, event);
    await sql`select pg_notify(${this.channel}, ${JSON.stringify(event)})`.execute(trx);
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
    let event: AnyDomainEvent;
    try {
      event = JSON.parse(payload) as AnyDomainEvent;
    } catch (error) {
      this.#logger.warn({ err: error }, 'unreadable event notification');
      return;
    }
    for (const handler of this.#live) {
      try {
        handler(event);
      } catch (error) {
        this.#logger.error({ err: error, event: event.name }, 'live event handler failed');
      }
    }
  }

  async close(): Promise<void> {
    this.#live.clear();
    await this.#unlisten?.();
    this.#unlisten = undefined;
  }
}
