/**
 * One documented example envelope per public event type, for the Webhooks page's guide: the same
 * examples the server publishes in the OpenAPI document and answers REST hooks' sample step with
 * when no real event exists yet (common/api/event-examples.ts). The tests parse every example with
 * `envelopeSchemaFor(type)`.
 */
export { exampleEnvelope } from '@common/api/event-examples';
