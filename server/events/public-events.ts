/**
 * The seam between the public-event outbox (server/modules/events, issue 14 §1) and what consumes
 * it: outbound webhook subscriptions (server/modules/hooks) and event-triggered automations
 * (server/modules/automations). `app.ts` hands the events module its sinks.
 *
 * The events module stores each public event in its outbox table and calls every sink's `accept`
 * IN THE SAME TRANSACTION, so a consumer's rows (deliveries, executions, their jobs) commit with the
 * event or not at all: a crash never loses or invents one.
 */
import type { Db } from '../db/database';
import type { PublicEventEnvelope, PublicEventType } from '../../common/api/events';
import type { PerformedBy } from './domain-events';

export interface StoredPublicEvent {
  /** The event's id (= `envelope.id`): the idempotency key subscribers see. */
  id: string;
  type: PublicEventType;
  /**
   * Position in the outbox: increases with the order of the changes within one conversation, so a
   * consumer keeps the event order per conversation by it.
   */
  seq: string;
  clientId: string | null;
  conversationId: string | null;
  performedBy: PerformedBy;
  /** Exactly the JSON body subscribers receive. */
  envelope: PublicEventEnvelope;
}

/**
 * What a sink wants done once the transaction it wrote in has ended: start the jobs it inserted
 * already claimed by this instance (JobQueue.reserve / runLocal) after COMMIT, or give their
 * slots back after a ROLLBACK. The events module calls exactly one of the two.
 */
export interface SinkOutcome {
  committed(): void;
  rolledBack(): void;
}

export interface PublicEventSink {
  /**
   * The name of a database function (no arguments, returning boolean, in the sink's module's SQL
   * routines) that says whether the sink may want any event now: an active subscription, an
   * active event-triggered automation. While every sink's function returns false, changes queue
   * no outbox work and no event is stored (docs/events.md, "Only when someone listens"). Omitted:
   * the sink always wants events.
   */
  readonly interest?: string;
  /**
   * Called inside the transaction that stores `events` (one call per batch of events, in `seq`
   * order); must write only through `trx`. May return what to do when that transaction ends.
   */
  accept(trx: Db, events: readonly StoredPublicEvent[]): Promise<void | SinkOutcome>;
}
