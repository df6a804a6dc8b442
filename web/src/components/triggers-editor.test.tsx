import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { PUBLIC_EVENT_TYPES } from '@common/api/events';
import { ANY_CLIENT, describeTrigger, EVENT_LABEL, TriggersEditor, triggerEventChoices, triggersError, withClient, withEvent, type TriggerDraft } from './triggers-editor';

const render = (value: TriggerDraft[], error?: string) =>
  renderToStaticMarkup(<TriggersEditor id="t" value={value} onChange={() => undefined} error={error} />);

describe('TriggersEditor', () => {
  it('shows each trigger with its event, the chosen channels and statuses pressed, and a remove button', () => {
    const html = render([{ event: 'conversation.escalated', filters: { channel: ['whatsapp'], conversation_status: ['escalated'] } }]);
    expect(html).toContain('Triggers');
    expect(html).toMatch(/aria-pressed="true"[^>]*>WhatsApp</u);
    expect(html).toMatch(/aria-pressed="false"[^>]*>Instagram</u);
    expect(html).toMatch(/aria-pressed="true"[^>]*>Escalated</u);
    expect(html).toContain('Channel: WhatsApp');
    expect(html).toContain('Conversation status: Escalated');
    expect(html).toContain('aria-label="Remove trigger 1 (conversation.escalated)"');
    expect(html).toContain('Add trigger');
  });

  it('offers no channel or status filters for an event without a conversation, and says when there are no triggers', () => {
    const html = render([{ event: 'contact.created' }]);
    expect(html).not.toContain('aria-label="Channel"');
    expect(html).not.toContain('aria-label="Conversation status"');
    expect(render([])).toContain('No event triggers: it runs only when started.');
  });

  it('offers a client filter per trigger when given the clients, and otherwise only says which client a stored filter names', () => {
    const clientId = '0b6c3f5e-8d6a-4c1e-9f0a-2b3c4d5e6f70';
    const withClients = renderToStaticMarkup(
      <TriggersEditor id="t" value={[{ event: 'lead.qualified', filters: { client_id: clientId } }]} onChange={() => undefined} clients={[{ id: clientId, name: 'Bike Shop' }]} />,
    );
    expect(withClients).toMatch(/<label[^>]*for="t-0-client"[^>]*>Client</u);
    expect(withClients).not.toContain(`Only events of client ${clientId}`);
    const withoutClients = render([{ event: 'lead.qualified', filters: { client_id: clientId } }]);
    expect(withoutClients).not.toContain('for="t-0-client"');
    expect(withoutClients).toContain(`Only events of client ${clientId}.`);
  });

  it('shows the server’s message for the triggers', () => {
    expect(render([{ event: 'message.received' }], 'Trigger 1: Unknown event type')).toContain('role="alert">Trigger 1: Unknown event type<');
  });
});

describe('trigger helpers', () => {
  it('drops the conversation filters when the event changes to one without a conversation', () => {
    expect(withEvent({ event: 'message.received', filters: { channel: ['api'] } }, 'contact.created')).toEqual({ event: 'contact.created' });
    expect(withEvent({ event: 'message.received', filters: { channel: ['api'] } }, 'message.sent')).toEqual({ event: 'message.sent', filters: { channel: ['api'] } });
  });

  it('sets the client filter to the chosen client and removes it for "Any client", keeping the other filters', () => {
    const clientId = '0b6c3f5e-8d6a-4c1e-9f0a-2b3c4d5e6f70';
    const chosen = withClient({ event: 'message.received', filters: { channel: ['api'] } }, clientId);
    expect(chosen).toEqual({ event: 'message.received', filters: { channel: ['api'], client_id: clientId } });
    expect(withClient(chosen, ANY_CLIENT)).toEqual({ event: 'message.received', filters: { channel: ['api'] } });
    expect(withClient({ event: 'lead.qualified', filters: { client_id: clientId } }, ANY_CLIENT)).toEqual({ event: 'lead.qualified' });
  });

  it('offers installation-wide events (contact_form.submitted) only where no client scopes the automation, keeping one already chosen', () => {
    expect(triggerEventChoices(false, 'message.received')).toEqual([...PUBLIC_EVENT_TYPES]);
    expect(triggerEventChoices(true, 'message.received')).toEqual(PUBLIC_EVENT_TYPES.filter((t) => t !== 'contact_form.submitted'));
    expect(triggerEventChoices(true, 'contact_form.submitted')).toContain('contact_form.submitted');
    for (const type of PUBLIC_EVENT_TYPES) expect(EVENT_LABEL[type].length, type).toBeGreaterThan(5);
  });

  it('describes a trigger in one line', () => {
    expect(describeTrigger({ event: 'message.received', filters: { channel: ['whatsapp', 'webchat'], conversation_status: ['pending'] } })).toBe(
      'message.received · WhatsApp, Website chat · Pending',
    );
    expect(describeTrigger({ event: 'lead.qualified' })).toBe('lead.qualified');
  });

  it('finds the first server message about the triggers, numbered for people', () => {
    expect(triggersError({ name: 'Name is required', 'config.triggers.1.filters.channel.0': 'Channel must be one of …' }, 'config.triggers')).toBe(
      'Trigger 2: Channel must be one of …',
    );
    expect(triggersError({ 'config.triggers': 'At most 20 triggers' }, 'config.triggers')).toBe('At most 20 triggers');
    expect(triggersError({ name: 'x' }, 'config.triggers')).toBeUndefined();
  });
});
