import { describe, expect, it } from 'vitest';
import { escalationText, priorityText, requestText, summaryText } from './understanding';

describe('what the agent understood, in words', () => {
  it('states the priority with what raised it', () => {
    expect(priorityText('high', 'Keyword “urgent”')).toBe('High priority: Keyword “urgent”');
    expect(priorityText('low', null)).toBe('Low priority');
    expect(priorityText('medium', '  ')).toBe('Medium priority');
  });

  it('says why only while the conversation is escalated', () => {
    expect(escalationText({ status: 'escalated', escalationReason: 'the customer asked for a person' })).toBe('The customer asked for a person');
    expect(escalationText({ status: 'active', escalationReason: 'the customer asked for a person' })).toBeNull();
    expect(escalationText({ status: 'escalated', escalationReason: null })).toBeNull();
    expect(escalationText({ status: 'escalated' })).toBeNull();
  });

  it('takes the latest message’s summary as what the customer wants, the conversation’s summary as the rest', () => {
    const both = { request: 'Topic: Opening hours.', aiSummary: 'Customer: When are you open? Answered by the AI.' };
    expect(requestText(both)).toBe('Topic: Opening hours.');
    expect(summaryText(both)).toBe('Customer: When are you open? Answered by the AI.');
    expect(requestText({ request: null, aiSummary: 'Customer: hi. Not answered yet.' })).toBe('Customer: hi. Not answered yet.');
    expect(summaryText({ request: null, aiSummary: 'Customer: hi. Not answered yet.' })).toBeNull();
    expect(requestText({ aiSummary: null })).toBeNull();
  });
});
