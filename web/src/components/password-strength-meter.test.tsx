import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { scorePassword } from '@common/validation/password-strength';
import { PasswordStrengthMeter, strengthPercent } from './password-strength-meter';

const render = (password: string) => renderToStaticMarkup(<PasswordStrengthMeter strength={scorePassword(password)} />);

describe('PasswordStrengthMeter', () => {
  it('labels a weak password and lists what is missing', () => {
    const html = render('aaa');
    expect(html).toContain('aria-valuetext="Weak"');
    expect(html).toContain('aria-valuemax="8"');
    expect(html).toContain('Use at least 8 characters');
    expect(html).toContain('Include uppercase letters');
    expect(html).toContain('Include numbers');
    expect(html).toContain('Include special characters');
  });

  it('labels a middling password Fair', () => {
    const html = render('abcdefgh');
    expect(html).toContain('aria-valuetext="Fair"');
    expect(html).not.toContain('Use at least 8 characters');
  });

  it('labels a strong password Strong with a full bar and no hints', () => {
    const html = render('Str0ng!Passw0rd');
    expect(html).toContain('aria-valuenow="8"');
    expect(html).toContain('aria-valuetext="Strong"');
    expect(html).toContain('w-full');
    expect(html).not.toContain('Password hints');
  });

  it('can hide the hints', () => {
    const html = renderToStaticMarkup(<PasswordStrengthMeter strength={scorePassword('aaa')} showHints={false} />);
    expect(html).not.toContain('Use at least 8 characters');
  });
});

describe('strengthPercent', () => {
  it('divides the shared score by its maximum of 8', () => {
    expect(strengthPercent(0)).toBe(0);
    expect(strengthPercent(4)).toBe(50);
    expect(strengthPercent(8)).toBe(100);
    expect(strengthPercent(12)).toBe(100);
  });
});
