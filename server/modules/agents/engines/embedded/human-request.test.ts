import { describe, expect, it } from 'vitest';
import { asksForPerson } from './human-request';

describe('asksForPerson', () => {
  it.each([
    'Can I talk to a human?',
    'I want to speak to a real person',
    'let me speak with someone please',
    'Could I chat with an agent',
    'Speak to a representative',
    'please connect me to a live agent',
    'Transfer me to customer service',
    'put me through to a person',
    'I need a human',
    "I'd like a real person, not a bot",
    'Can I get an agent?',
    'get me a manager',
    'is there a human I can talk to?',
    'Human please',
    'AGENT!!',
    'representative',
    'talk to somebody from support',
    'I want to talk to the manager',
    'Can I speak to someone about my refund?',
  ])('recognises %j', (text) => {
    expect(asksForPerson(text)).toBe(true);
  });

  it.each([
    'the agent was rude to me',
    'Can someone else use my card?',
    'I talked to someone yesterday about my order',
    'How do I add a person to my account?',
    'Who should I talk to about fees?',
    'talk to you later',
    'What are your opening hours?',
    'Is the human resources department open?',
    'My travel agent booked this',
    'Do you speak Spanish?',
    '',
  ])('leaves %j alone', (text) => {
    expect(asksForPerson(text)).toBe(false);
  });
});
