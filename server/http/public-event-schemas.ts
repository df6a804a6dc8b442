/**
 * The public events' envelopes (common/api/events.ts) as OpenAPI components, one per type, each
 * with its documented example (common/api/event-examples.ts): `/docs` shows what a webhook
 * subscriber receives although no route returns it.
 */
import { exampleEnvelope } from '../../common/api/event-examples';
import { PUBLIC_EVENT_TYPES, envelopeSchemaFor } from '../../common/api/events';
import type { z } from 'zod';

/** Component name → schema and example, e.g. `PublicEvent.message.received`. */
export function publicEventSchemas(): Record<string, { schema: z.ZodType; example: unknown }> {
  return Object.fromEntries(
    PUBLIC_EVENT_TYPES.map((type) => [`PublicEvent.${type}`, { schema: envelopeSchemaFor(type).describe(`The body of a ${type} event delivery.`), example: exampleEnvelope(type) }]),
  );
}
