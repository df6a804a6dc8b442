/**
 * The validation rules of spec part 1 §5, written once. The web forms use these schemas for live
 * feedback; the server parses every request with the same schemas and is the authority.
 */
import { z } from 'zod';
import { scorePassword, weakPasswordMessage } from './password-strength';

export const EMAIL_MAX = 254;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const NAME_MAX = 100;

/** The five disposable-mail domains refused at sign-up and sign-in (docs/DECISIONS.md). */
export const DISPOSABLE_EMAIL_DOMAINS: readonly string[] = [
  '10minutemail.com',
  'guerrillamail.com',
  'mailinator.com',
  'tempmail.org',
  'yopmail.com',
];

export const messages = {
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email address',
  emailTooLong: 'Email is too long',
  emailDisposable: 'Please use a valid email address',
  passwordRequired: 'Password is required',
  passwordTooShort: 'Password must be at least 8 characters',
  passwordTooLong: 'Password is too long',
  passwordComplexity:
    'Password must contain at least one uppercase letter, one lowercase letter, one number, and one special character',
  nameRequired: 'Name is required',
  nameTooLong: 'Name is too long',
  nameCharacters: 'Name can only contain letters, spaces, hyphens, and apostrophes',
  passwordsDoNotMatch: 'Passwords do not match',
} as const;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function isDisposableEmail(email: string): boolean {
  const domain = normalizeEmail(email).split('@').pop() ?? '';
  return DISPOSABLE_EMAIL_DOMAINS.includes(domain);
}

/** Trimmed, lower-cased, required, at most 254, a valid address, not a disposable domain. */
export const emailSchema = z
  .string({ error: messages.emailRequired })
  .trim()
  .toLowerCase()
  .min(1, { error: messages.emailRequired })
  .max(EMAIL_MAX, { error: messages.emailTooLong })
  .pipe(z.email({ error: messages.emailInvalid }))
  .refine((email) => !isDisposableEmail(email), { error: messages.emailDisposable });

/** Sign-in only asks that a password was given. */
export const signInPasswordSchema = z
  .string({ error: messages.passwordRequired })
  .min(1, { error: messages.passwordRequired });

const COMPLEXITY = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)(?=.*[@$!%*?&]).*$/su;

/** Every new password (sign-up, reset, change): length, complexity, then strength. */
export const newPasswordSchema = z
  .string({ error: messages.passwordRequired })
  .min(PASSWORD_MIN, { error: messages.passwordTooShort })
  .max(PASSWORD_MAX, { error: messages.passwordTooLong })
  .regex(COMPLEXITY, { error: messages.passwordComplexity })
  .superRefine((password, ctx) => {
    const strength = scorePassword(password);
    if (strength.isWeak) ctx.addIssue({ code: 'custom', message: weakPasswordMessage(strength.feedback) });
  });

// A plain space only: tabs and line breaks are not "spaces" in a name (they break greetings and lists).
const NAME_CHARACTERS = /^[\p{L}\p{M} '-]+$/u;

export const nameSchema = z
  .string({ error: messages.nameRequired })
  .trim()
  .min(1, { error: messages.nameRequired })
  .max(NAME_MAX, { error: messages.nameTooLong })
  .regex(NAME_CHARACTERS, { error: messages.nameCharacters });

export const signInInput = z.object({
  email: emailSchema,
  password: signInPasswordSchema,
});
export type SignInInput = z.input<typeof signInInput>;

export const signUpInput = z
  .object({
    name: nameSchema,
    email: emailSchema,
    password: newPasswordSchema,
    confirmPassword: z.string({ error: messages.passwordsDoNotMatch }),
  })
  .refine((v) => v.password === v.confirmPassword, {
    error: messages.passwordsDoNotMatch,
    path: ['confirmPassword'],
  });
export type SignUpInput = z.input<typeof signUpInput>;

/** Forgot password (spec part 2 §5): required after trimming, must contain "@". */
export const forgotPasswordInput = z.object({
  email: z
    .string({ error: messages.emailRequired })
    .trim()
    .toLowerCase()
    .min(1, { error: messages.emailRequired })
    .max(EMAIL_MAX, { error: messages.emailTooLong })
    .refine((email) => email.includes('@'), { error: messages.emailInvalid }),
});
export type ForgotPasswordInput = z.input<typeof forgotPasswordInput>;

export const resetPasswordInput = z
  .object({
    token: z.string().min(1).max(200),
    password: newPasswordSchema,
    confirmPassword: z.string(),
  })
  .refine((v) => v.password === v.confirmPassword, {
    error: messages.passwordsDoNotMatch,
    path: ['confirmPassword'],
  });
export type ResetPasswordInput = z.input<typeof resetPasswordInput>;

export const changePasswordInput = z
  .object({
    currentPassword: z.string().min(1, { error: 'Current password is required' }).max(PASSWORD_MAX),
    newPassword: newPasswordSchema,
    confirmPassword: z.string(),
    revokeOtherSessions: z.boolean().default(true),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    error: "New password and confirm password don't match.",
    path: ['confirmPassword'],
  });
export type ChangePasswordInput = z.input<typeof changePasswordInput>;

/** First message of a failed parse, as the "Invalid Input" toast shows it. */
export function firstIssueMessage(error: z.ZodError): string {
  return error.issues[0]?.message ?? 'Invalid input';
}
