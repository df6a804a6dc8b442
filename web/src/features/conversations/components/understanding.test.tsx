import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ConversationView } from '@common/api/conversations';
import { ConversationUnderstanding } from './understanding';

const conversation = (over: Partial<ConversationView>): ConversationView =>
  ({
    id: '00000000-0000-4000-8000-000000000001',
    status: 'escalated',
    priority: 'high',
    priorityReason: 'Keyword “urgent”',
    sentiment: 'negative',
    aiSummary: 'Customer: My bike is broken. Handed to a person.',
    request: 'Technical support: “My bike is broken”',
    escalationReason: 'the AI was not confident enough (41%)',
    matchedEntry: { kind: 'faq', id: 'e1', title: 'Can I return a bike?', link: 'https://shop.example/returns' },
    isLead: false,
    leadEmail: null,
    leadPhone: null,
    leadSignals: [],
    ...over,
  }) as ConversationView;

describe('the thread header’s account of what the agent understood', () => {
  it('shows the request, summary, sentiment in words, the priority with its reason, the entry and why it was escalated', () => {
    const html = renderToStaticMarkup(<ConversationUnderstanding conversation={conversation({})} />);
    expect(html).toContain('Technical support: “My bike is broken”');
    expect(html).toContain('Customer: My bike is broken. Handed to a person.');
    expect(html).toContain('Negative');
    expect(html).toContain('High priority');
    expect(html).toContain('Keyword “urgent”');
    expect(html).toMatch(/<a [^>]*href="https:\/\/shop.example\/returns"[^>]*>Can I return a bike\?<\/a>/u);
    expect(html).toContain('The AI was not confident enough (41%)');
  });

  it('says what is not known yet instead of inventing it', () => {
    const html = renderToStaticMarkup(
      <ConversationUnderstanding conversation={conversation({ status: 'active', request: null, aiSummary: null, sentiment: null, priority: 'low', priorityReason: null, matchedEntry: null })} />,
    );
    expect(html).toContain('Nothing recorded yet.');
    expect(html).toContain('Not measured yet.');
    expect(html).toContain('Low priority');
    expect(html).not.toContain('Why escalated');
    expect(html).not.toContain('Answered from');
  });

  it('shows a lead with what made it one and the details captured, as links', () => {
    const html = renderToStaticMarkup(
      <ConversationUnderstanding
        conversation={conversation({ isLead: true, leadEmail: 'ana@example.com', leadPhone: '+447700900123', leadSignals: ['email', 'phone', 'purchase_intent'] })}
      />,
    );
    expect(html).toContain('>Lead<');
    expect(html).toContain('The customer shared an e-mail address, shared a phone number, asked about buying.');
    expect(html).toMatch(/<a [^>]*href="mailto:ana@example.com"[^>]*>.*ana@example.com<\/a>/u);
    expect(html).toMatch(/<a [^>]*href="tel:\+447700900123"[^>]*>.*\+447700900123<\/a>/u);
  });

  it('says nothing of a lead when the conversation is not one', () => {
    const html = renderToStaticMarkup(<ConversationUnderstanding conversation={conversation({})} />);
    expect(html).not.toContain('lead-badge');
    expect(html).not.toContain('mailto:');
  });
});
