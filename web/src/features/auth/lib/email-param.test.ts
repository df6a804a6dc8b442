import { describe, expect, it } from 'vitest';
import { emailParam } from './email-param';

describe('emailParam', () => {
  it('fills the Email field from a link Parley sent, trimmed', () => {
    expect(emailParam(new URLSearchParams('email=ana%40lima-bikes.example'))).toBe('ana@lima-bikes.example');
    expect(emailParam(new URLSearchParams('email=%20ana%40lima.example%20'))).toBe('ana@lima.example');
  });

  it('leaves it empty for anything that is not an address', () => {
    for (const query of ['', 'email=', 'email=ana', 'email=ana%40', 'email=a%20b%40c.example', `email=${'a'.repeat(250)}%40b.example`]) {
      expect(emailParam(new URLSearchParams(query))).toBe('');
    }
  });
});
