import { describe, expect, it } from 'vitest';
import { loginPathFor, safeRedirect } from './redirect';

describe('safeRedirect', () => {
  it('keeps a path on this site', () => {
    expect(safeRedirect('/admin/users?q=1')).toBe('/admin/users?q=1');
  });

  it.each([null, '', 'https://evil.example', '//evil.example', '/\\evil.example', 'javascript:alert(1)', '/a\nb'])(
    'falls back to /dashboard for %j',
    (raw) => {
      expect(safeRedirect(raw)).toBe('/dashboard');
    },
  );
});

describe('loginPathFor', () => {
  it('encodes the origin', () => {
    expect(loginPathFor('/profile?tab=security')).toBe('/login?redirectTo=%2Fprofile%3Ftab%3Dsecurity');
  });

  it('adds nothing for the home page or no origin', () => {
    expect(loginPathFor('/')).toBe('/login');
    expect(loginPathFor(null)).toBe('/login');
  });
});
