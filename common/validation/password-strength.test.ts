import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COMMON_PASSWORDS } from './common-passwords';
import {
  isCommonPassword,
  PASSWORD_HINTS,
  PASSWORD_STRENGTH_MAX,
  scorePassword,
  strengthLabel,
  weakPasswordMessage,
} from './password-strength';

/** Meets all eight criteria: 12+ characters, four classes, no triple, not common. */
const PERFECT = 'Tr0ub4dor&Xy';

describe('password strength score', () => {
  it('gives 8 of 8 to a password meeting every criterion', () => {
    expect(scorePassword(PERFECT)).toEqual({ score: 8, max: 8, label: 'Strong', feedback: [], isWeak: false });
    expect(PASSWORD_STRENGTH_MAX).toBe(8);
  });

  // Each case breaks exactly one criterion of PERFECT, so the score drops by exactly one.
  it.each([
    ['length 8 or more (and so 12 or more)', 'Tr0u&X', 2, [PASSWORD_HINTS.length]],
    ['a lowercase letter', 'TR0UB4DOR&XY', 1, [PASSWORD_HINTS.lowercase]],
    ['an uppercase letter', 'tr0ub4dor&xy', 1, [PASSWORD_HINTS.uppercase]],
    ['a digit', 'Trouboador&Xy', 1, [PASSWORD_HINTS.number]],
    ['a special character', 'Tr0ub4dorzXy', 1, [PASSWORD_HINTS.special]],
    ['length 12 or more', 'Tr0ub4dor&X', 1, []],
    ['no character three times in a row', 'Tr0ub4dooo&X', 1, []],
  ])('takes a point away for missing %s', (_criterion, password, lost, feedback) => {
    const strength = scorePassword(password);
    expect(strength.score).toBe(8 - lost);
    expect(strength.feedback).toEqual(feedback);
  });

  it('takes a point away for a common password, in any case, and says "Avoid common passwords"', () => {
    for (const common of ['password', 'PASSWORD', 'P@ssw0rd', 'qwerty123!']) {
      expect(isCommonPassword(common)).toBe(true);
      expect(scorePassword(common).feedback).toContain(PASSWORD_HINTS.common);
    }
    // "password123!" is common; "password123?" is not, and meets exactly the same other criteria.
    expect(scorePassword('password123?').score - scorePassword('password123!').score).toBe(1);
  });

  it('lists hints in the spec order', () => {
    expect(scorePassword('').feedback).toEqual([
      'Use at least 8 characters',
      'Include lowercase letters',
      'Include uppercase letters',
      'Include numbers',
      'Include special characters',
    ]);
    expect(scorePassword('password').feedback).toEqual([
      'Include uppercase letters',
      'Include numbers',
      'Include special characters',
      'Avoid common passwords',
    ]);
  });

  it('labels below 3 Weak, below 5 Fair, otherwise Strong', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8].map(strengthLabel)).toEqual([
      'Weak', 'Weak', 'Weak', 'Fair', 'Fair', 'Strong', 'Strong', 'Strong', 'Strong',
    ]);
    expect(scorePassword('aaa').label).toBe('Weak'); // lowercase, not common: 2
    expect(scorePassword('abcd12').label).toBe('Fair'); // lower, digit, no triple, not common: 4
  });

  it('calls a score below 4 weak', () => {
    expect(scorePassword('abc1').isWeak).toBe(false); // lower, digit, no triple, not common: 4
    expect(scorePassword('abcd').isWeak).toBe(true); // 3
  });

  it('the score is always the number of criteria met, between 0 and 8, and the label follows it', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (password) => {
        const s = scorePassword(password);
        expect(s.score).toBeGreaterThanOrEqual(0);
        expect(s.score).toBeLessThanOrEqual(8);
        expect(s.label).toBe(strengthLabel(s.score));
        expect(s.isWeak).toBe(s.score < 4);
        // Every hint stands for a missed criterion, so hints never exceed the points lost.
        expect(s.feedback.length).toBeLessThanOrEqual(8 - s.score);
      }),
      { numRuns: 300 },
    );
  });

  it('every listed common password is lower-case, so the case-insensitive lookup can find it', () => {
    for (const p of COMMON_PASSWORDS) expect(p).toBe(p.toLowerCase());
  });
});

describe('weak password message', () => {
  it('reads "Password is too weak." followed by the hints', () => {
    expect(weakPasswordMessage([])).toBe('Password is too weak.');
    expect(weakPasswordMessage(['Include numbers', 'Avoid common passwords'])).toBe(
      'Password is too weak. Include numbers. Avoid common passwords.',
    );
  });
});
