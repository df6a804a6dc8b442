/**
 * Password strength score of spec part 1 §5: one point per criterion, eight criteria.
 *
 * The spec gives two maxima (8 from the criteria list, 7 from the reset screen's meter). We count
 * all eight criteria and divide the meter by 8, so the meter, the labels and the server's "too
 * weak" rule read the same number (docs/DECISIONS.md, "Password strength maximum").
 */
import { COMMON_PASSWORDS } from './common-passwords';

export const PASSWORD_STRENGTH_MAX = 8;
/** A score below this is weak and refused ("Password is too weak."). */
export const PASSWORD_MIN_ACCEPTED_SCORE = 4;

export const PASSWORD_HINTS = {
  length: 'Use at least 8 characters',
  lowercase: 'Include lowercase letters',
  uppercase: 'Include uppercase letters',
  number: 'Include numbers',
  special: 'Include special characters',
  common: 'Avoid common passwords',
} as const;

export type StrengthLabel = 'Weak' | 'Fair' | 'Strong';

export interface PasswordStrength {
  score: number;
  max: typeof PASSWORD_STRENGTH_MAX;
  label: StrengthLabel;
  /** Hints for the criteria not met, in the spec's order. */
  feedback: string[];
  isWeak: boolean;
}

export function isCommonPassword(password: string): boolean {
  return COMMON_PASSWORDS.has(password.toLowerCase());
}

export function scorePassword(password: string): PasswordStrength {
  const lengthOk = password.length >= 8;
  const lowercase = /[a-z]/.test(password);
  const uppercase = /[A-Z]/.test(password);
  const number = /\d/.test(password);
  const special = /[^A-Za-z0-9]/.test(password);
  const long = password.length >= 12;
  const noTriples = !/(.)\1\1/u.test(password);
  const notCommon = password.length > 0 && !isCommonPassword(password);

  const score = [lengthOk, lowercase, uppercase, number, special, long, noTriples, notCommon].filter(Boolean).length;

  const feedback: string[] = [];
  if (!lengthOk) feedback.push(PASSWORD_HINTS.length);
  if (!lowercase) feedback.push(PASSWORD_HINTS.lowercase);
  if (!uppercase) feedback.push(PASSWORD_HINTS.uppercase);
  if (!number) feedback.push(PASSWORD_HINTS.number);
  if (!special) feedback.push(PASSWORD_HINTS.special);
  if (!notCommon && password.length > 0) feedback.push(PASSWORD_HINTS.common);

  return {
    score,
    max: PASSWORD_STRENGTH_MAX,
    label: strengthLabel(score),
    feedback,
    isWeak: score < PASSWORD_MIN_ACCEPTED_SCORE,
  };
}

export function strengthLabel(score: number): StrengthLabel {
  if (score < 3) return 'Weak';
  if (score < 5) return 'Fair';
  return 'Strong';
}

/** "Password is too weak." followed by the hints, as the spec's toast and server error read. */
export function weakPasswordMessage(feedback: readonly string[]): string {
  return feedback.length === 0 ? 'Password is too weak.' : `Password is too weak. ${feedback.join('. ')}.`;
}
