import { describe, expect, it } from 'vitest';
import { detectLead } from './lead-signals';

describe('lead signals', () => {
  it.each([
    ['my email is a@b.co', { signals: ['email'], email: 'a@b.co', phone: null }],
    ['Reach me at Ana.Souza+shop@Example.com please', { signals: ['email'], email: 'ana.souza+shop@example.com' }],
    ['+44 7700 900123', { signals: ['phone'], phone: '+447700900123' }],
    ['call me on 07700 900123', { signals: ['phone'], phone: '07700900123' }],
    ['my number is (555) 123-4567', { signals: ['phone'], phone: '5551234567' }],
    ['whatsapp me +55 11 91234-5678 or write to ana@example.com.br', { signals: ['email', 'phone'], email: 'ana@example.com.br', phone: '+5511912345678' }],
  ])('finds contact details in %j', (text, expected) => {
    expect(detectLead(text)).toMatchObject(expected);
  });

  it.each([
    ['how much is the premium plan?', 'how much is the premium plan?'],
    ['Hi. What is the price of the blue bike? Thanks', 'What is the price of the blue bike?'],
    ['Can I order two of them for Friday', 'Can I order two of them for Friday'],
    ['I would like to book a table for four', 'I would like to book a table for four'],
    ['Could you send me a quote', 'Could you send me a quote'],
    ['I want to buy the annual plan', 'I want to buy the annual plan'],
    ['how do I sign up?', 'how do I sign up?'],
    ['I want to subscribe to the newsletter', 'I want to subscribe to the newsletter'],
  ])('finds purchase intent in %j', (text, excerpt) => {
    expect(detectLead(text)).toMatchObject({ signals: ['purchase_intent'], intentExcerpt: excerpt });
  });

  it.each([
    "I don't want to buy anything",
    'not interested in pricing, thanks',
    'my order never arrived',
    'how much longer will the delivery take?',
    'hello there',
    'order #123456789012 is late',
    'we met on 2026-11-25 at 10:30',
    'my reference is 12345678',
    'I read the book you recommended',
    '',
  ])('finds no lead in %j', (text) => {
    expect(detectLead(text)).toBeNull();
  });

  it('does not read the digits of an e-mail address as a phone number', () => {
    expect(detectLead('write to user1234567890@example.com')).toMatchObject({ signals: ['email'], phone: null });
  });

  it('a negation in another sentence does not cancel the intent', () => {
    expect(detectLead("I don't like waiting. How much is the premium plan?")).toMatchObject({ signals: ['purchase_intent'], intentExcerpt: 'How much is the premium plan?' });
  });
});
