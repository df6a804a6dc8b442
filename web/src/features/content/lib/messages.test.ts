import { describe, expect, it } from 'vitest';
import { mailtoReply, senderName } from './messages';

describe('a contact message', () => {
  it('is from its first and last name', () => {
    expect(senderName({ firstName: 'Ada', lastName: 'Lovelace' })).toBe('Ada Lovelace');
  });

  it('offers a mail link to the sender with the message quoted', () => {
    const link = mailtoReply({ email: 'ada+demo@example.com', firstName: 'Ada', message: 'Hello\nCan we talk?' });
    expect(link.startsWith('mailto:ada%2Bdemo@example.com?subject=Re%3A%20your%20message&body=')).toBe(true);
    const body = decodeURIComponent(link.split('&body=')[1] ?? '');
    expect(body).toBe('Hi Ada,\n\n\n\n> Hello\n> Can we talk?');
  });

  it('keeps the link short for a long message', () => {
    const link = mailtoReply({ email: 'a@example.com', firstName: 'A', message: 'x'.repeat(5_000) });
    expect(link.length).toBeLessThan(1_000);
  });
});
