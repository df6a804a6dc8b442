/** Priority reasons, key phrases, message summaries and "Try the agent"'s outcome (issue 12 §4). */
import { describe, expect, it } from 'vitest';
import { KEYWORD_SUMMARIES, priorityKeyword } from '../../../common/messaging/keyword-rules';
import { annotateInbound, explainPriority, keyPhrase, messagePriority, messageSummary } from './intelligence';
import { tryOutcome } from './try-result';

describe('the priority and its reason', () => {
  it('names the keyword that set the level (spec §9), high keywords first', () => {
    expect(priorityKeyword('Urgent help with my bike')).toEqual({ priority: 'high', keyword: 'urgent' });
    expect(priorityKeyword('I have a question')).toEqual({ priority: 'medium', keyword: 'question' });
    expect(priorityKeyword('the app is not   working')).toEqual({ priority: 'high', keyword: 'not working' });
    expect(priorityKeyword('hello there')).toEqual({ priority: 'low', keyword: null });
    expect(explainPriority('URGENT please', { sentiment: 0 })).toEqual({ priority: 'high', reason: 'Keyword “urgent”' });
    expect(explainPriority('what are your hours', { sentiment: 0 })).toEqual({ priority: 'low', reason: null });
  });

  it('names the tone when the mood raised it above the keywords, and keeps the keyword when it already reached that level', () => {
    expect(explainPriority('you are useless', { sentiment: -0.5 })).toEqual({ priority: 'medium', reason: 'Negative tone' });
    expect(explainPriority('I need my invoice', { sentiment: -0.9 })).toEqual({ priority: 'high', reason: 'Very negative tone' });
    expect(explainPriority('I need my invoice', { sentiment: -0.5 })).toEqual({ priority: 'medium', reason: 'Keyword “need”' });
    expect(explainPriority('this is broken', { sentiment: -0.9 })).toEqual({ priority: 'high', reason: 'Keyword “broken”' });
  });

  it('names the hand-off when it is what made the priority high', () => {
    expect(explainPriority('blue', { sentiment: 0, escalated: true, escalationReason: 'the customer asked for a person' })).toEqual({
      priority: 'high',
      reason: 'Handed to a person: the customer asked for a person',
    });
    expect(explainPriority('urgent', { sentiment: 0, escalated: true })).toEqual({ priority: 'high', reason: 'Keyword “urgent”' });
  });

  it('keeps messagePriority as it was', () => {
    expect(messagePriority('hello', { sentiment: 0 })).toBe('low');
    expect(messagePriority('hello', { sentiment: -0.5 })).toBe('medium');
    expect(messagePriority('hello', { sentiment: -0.8 })).toBe('high');
    expect(messagePriority('help', { sentiment: 0, escalated: true })).toBe('high');
  });

  it('is recorded with every inbound message', () => {
    const annotation = annotateInbound('URGENT: my order never arrived');
    expect(annotation).toMatchObject({ priority: 'high', priorityReason: 'Keyword “urgent”' });
    expect(annotation.aiSummary).toBe('Order inquiry: “URGENT: my order never arrived”');
  });
});

describe('the key phrase of a message', () => {
  it('takes the sentence with the most content words, without the greeting, questions winning ties', () => {
    expect(keyPhrase('Hi there! till what time are you open on saturdays?')).toBe('till what time are you open on saturdays?');
    expect(keyPhrase('Hello, my bike chain snapped. Can you fix it?')).toBe('my bike chain snapped.');
    expect(keyPhrase('Good morning team, do you ship to Norway?')).toBe('do you ship to Norway?');
  });

  it('is null when there is nothing to quote', () => {
    expect(keyPhrase('hi')).toBeNull();
    expect(keyPhrase('ok')).toBeNull();
    expect(keyPhrase('👍')).toBeNull();
    expect(keyPhrase('')).toBeNull();
  });

  it('is cut at a word near 80 characters', () => {
    const long = `I would like to know ${'whether the warranty covers scratches '.repeat(5)}`;
    const phrase = keyPhrase(long)!;
    expect(phrase.length).toBeLessThanOrEqual(80);
    expect(phrase.endsWith('…')).toBe(true);
    expect(long.startsWith(phrase.slice(0, -1))).toBe(true);
  });
});

describe('message summaries', () => {
  it('name the matched entry when the engine was sure enough, under the spec category when a keyword gives one', () => {
    expect(messageSummary('till what time are you open on saturdays?', { title: 'What are your opening hours?', confidence: 0.9 })).toBe(
      'Topic: What are your opening hours?',
    );
    expect(messageSummary('Can I return a bike?', { title: 'Returns', confidence: 0.7 })).toBe('Topic: Returns.');
    expect(messageSummary('is delivery free?', { title: 'How much does shipping cost?', confidence: 0.9 })).toBe('Order inquiry — Topic: How much does shipping cost?');
  });

  it('quote the key phrase otherwise: never "General inquiry." when the customer wrote words', () => {
    expect(messageSummary('till what time are you open on saturdays?', null)).toBe('Asks: “till what time are you open on saturdays?”');
    expect(messageSummary('till what time are you open on saturdays?', { title: 'Opening hours', confidence: 0.3 })).toBe(
      'Asks: “till what time are you open on saturdays?”',
    );
    expect(messageSummary('My chain snapped on the way to work', null)).toBe('Says: “My chain snapped on the way to work”');
    expect(messageSummary('I forgot my password', null)).toBe('Authentication: “I forgot my password”');
  });

  it('keep the spec category as the floor when there is nothing to quote', () => {
    expect(messageSummary('hi', null)).toBe(KEYWORD_SUMMARIES.general);
    expect(messageSummary('thank you!', null)).toBe('Positive feedback: “thank you!”');
    expect(messageSummary('👍', null)).toBe(KEYWORD_SUMMARIES.general);
  });
});

describe('"Try the agent": what a customer would receive', () => {
  const config = { greetingText: 'Hello!', handoffText: 'A person will reply.', fallbackText: 'Please rephrase.', confidenceThreshold: 0.8 };
  const answer = { reply: 'We open at 9.', confidence: 0.62, action: 'answer' as const, sources: [{ kind: 'faq' as const, id: 'e1', title: 'Opening hours' }] };

  it('is the answer when the policy sends it', () => {
    expect(tryOutcome({ ...answer, confidence: 0.9 }, 'answer', config, false)).toEqual({ received: { kind: 'answer', text: 'We open at 9.' }, rejected: null });
  });

  it('is the hand-off text below the threshold, with the candidate apart ("would have answered … at 62 %")', () => {
    expect(tryOutcome(answer, 'handoff', config, false)).toEqual({
      received: { kind: 'handoff', text: 'A person will reply.' },
      rejected: { reply: 'We open at 9.', confidence: 0.62, reason: 'its confidence is below the threshold (80%)', sources: [{ kind: 'faq', id: 'e1', title: 'Opening hours', link: null }] },
    });
  });

  it('is the fallback text when escalation is off, and says when the customer asked for a person or the engine did', () => {
    expect(tryOutcome(answer, 'fallback', config, false).received).toEqual({ kind: 'fallback', text: 'Please rephrase.' });
    expect(tryOutcome({ ...answer, confidence: 0.95 }, 'handoff', config, true).rejected?.reason).toBe('the customer asks for a person');
    expect(tryOutcome({ ...answer, action: 'escalate' }, 'handoff', config, false).rejected?.reason).toBe('the engine asked for a person');
  });

  it('is the greeting text for a greeting, and no candidate when the engine had no reply', () => {
    expect(tryOutcome(answer, 'greeting', config, false)).toEqual({ received: { kind: 'greeting', text: 'Hello!' }, rejected: null });
    expect(tryOutcome({ ...answer, reply: '' }, 'handoff', config, false).rejected).toBeNull();
  });
});
