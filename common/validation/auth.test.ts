import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  DISPOSABLE_EMAIL_DOMAINS,
  emailSchema,
  firstIssueMessage,
  forgotPasswordInput,
  isDisposableEmail,
  nameSchema,
  newPasswordSchema,
  normalizeEmail,
  resetPasswordInput,
  signInInput,
  signUpInput,
} from './auth';

/** The first message a form would show for this input, or null when it is accepted. */
function firstMessage(schema: z.ZodType, value: unknown): string | null {
  const result = schema.safeParse(value);
  return result.success ? null : firstIssueMessage(result.error);
}

function messagesAt(schema: z.ZodType, value: unknown, path: string): string[] {
  const result = schema.safeParse(value);
  if (result.success) return [];
  return result.error.issues.filter((i) => i.path.join('.') === path).map((i) => i.message);
}

/** A syntactically valid address of exactly `length` characters. */
function emailOfLength(length: number): string {
  const local = 'a'.repeat(64);
  let rest = length - local.length - 1 - '.com'.length;
  const labels: string[] = [];
  while (rest > 0) {
    const size = Math.min(63, rest);
    labels.push('b'.repeat(size));
    rest -= size + 1;
  }
  const email = `${local}@${labels.join('.')}.com`;
  if (email.length !== length) throw new Error(`built ${email.length}, wanted ${length}`);
  return email;
}

const STRONG = 'Str0ng!Passw0rd';

describe('email rules', () => {
  it('trims and lower-cases the address', () => {
    expect(emailSchema.parse('  Ann.Lee@Example.COM \t')).toBe('ann.lee@example.com');
    expect(normalizeEmail('  Ann.Lee@Example.COM ')).toBe('ann.lee@example.com');
  });

  it('normalising is idempotent and agrees with the schema for every accepted address', () => {
    fc.assert(
      fc.property(fc.emailAddress(), fc.constantFrom('', ' ', '  \t'), fc.boolean(), (address, pad, upper) => {
        const raw = `${pad}${upper ? address.toUpperCase() : address}${pad}`;
        const once = normalizeEmail(raw);
        expect(normalizeEmail(once)).toBe(once);
        const parsed = emailSchema.safeParse(raw);
        if (parsed.success) {
          expect(parsed.data).toBe(once);
          expect(emailSchema.parse(parsed.data)).toBe(parsed.data);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('requires an address ("Email is required"), blank or missing', () => {
    expect(firstMessage(emailSchema, '')).toBe('Email is required');
    expect(firstMessage(emailSchema, '   ')).toBe('Email is required');
    expect(firstMessage(emailSchema, undefined)).toBe('Email is required');
  });

  it('accepts 254 characters and refuses 255 ("Email is too long")', () => {
    expect(firstMessage(emailSchema, emailOfLength(254))).toBeNull();
    expect(firstMessage(emailSchema, emailOfLength(255))).toBe('Email is too long');
  });

  it.each(['ann', 'ann@', '@example.com', 'ann@example', 'ann lee@example.com', 'ann@@example.com'])(
    'refuses the malformed address %j ("Please enter a valid email address")',
    (value) => {
      expect(firstMessage(emailSchema, value)).toBe('Please enter a valid email address');
    },
  );

  it('accepts ordinary addresses with plus tags and sub-domains', () => {
    expect(emailSchema.parse('ann.lee+news@mail.example.co.uk')).toBe('ann.lee+news@mail.example.co.uk');
  });

  it('refuses exactly the five disposable domains, in any case ("Please use a valid email address")', () => {
    expect(DISPOSABLE_EMAIL_DOMAINS).toEqual(['10minutemail.com', 'guerrillamail.com', 'mailinator.com', 'tempmail.org', 'yopmail.com']);
    for (const domain of DISPOSABLE_EMAIL_DOMAINS) {
      expect(firstMessage(emailSchema, `someone@${domain}`)).toBe('Please use a valid email address');
      expect(firstMessage(emailSchema, ` Someone@${domain.toUpperCase()} `)).toBe('Please use a valid email address');
      expect(isDisposableEmail(`x@${domain}`)).toBe(true);
    }
    expect(isDisposableEmail('x@example.com')).toBe(false);
    expect(firstMessage(emailSchema, 'someone@notmailinator.com')).toBeNull();
  });
});

describe('sign-in rules', () => {
  it('requires a password ("Password is required") but applies no policy to it', () => {
    expect(messagesAt(signInInput, { email: 'a@example.com', password: '' }, 'password')).toEqual(['Password is required']);
    expect(messagesAt(signInInput, { email: 'a@example.com' }, 'password')).toEqual(['Password is required']);
    expect(signInInput.parse({ email: ' A@Example.com ', password: 'x' })).toEqual({ email: 'a@example.com', password: 'x' });
  });
});

describe('new password rules', () => {
  it('requires 8 characters ("Password must be at least 8 characters")', () => {
    expect(firstMessage(newPasswordSchema, 'Aa1!aaa')).toBe('Password must be at least 8 characters');
    expect(firstMessage(newPasswordSchema, 'Aa1!aBcd')).toBeNull();
  });

  it('allows 128 characters and refuses 129 ("Password is too long")', () => {
    const base = 'Aa1!';
    expect(firstMessage(newPasswordSchema, base + 'xY'.repeat(62))).toBeNull();
    expect(firstMessage(newPasswordSchema, base + 'xY'.repeat(62) + 'z')).toBe('Password is too long');
  });

  it.each([
    ['no uppercase', 'lower1!case'],
    ['no lowercase', 'UPPER1!CASE'],
    ['no digit', 'NoDigits!here'],
    ['no special of @$!%*?&', 'NoSpecial1here'],
    ['a special outside @$!%*?&', 'Other1#special'],
  ])('refuses a password with %s (complexity message)', (_label, password) => {
    expect(firstMessage(newPasswordSchema, password)).toBe(
      'Password must contain at least one uppercase letter, one lowercase letter, one number, and one special character',
    );
  });

  it.each(['@', '$', '!', '%', '*', '?', '&'])('accepts %s as the special character', (special) => {
    expect(firstMessage(newPasswordSchema, `Abcdef1${special}`)).toBeNull();
  });

  it('refuses a weak password with "Password is too weak." followed by the hints', () => {
    expect(messagesAt(newPasswordSchema, 'password', '')).toContain(
      'Password is too weak. Include uppercase letters. Include numbers. Include special characters. Avoid common passwords.',
    );
    expect(messagesAt(newPasswordSchema, 'abc', '')).toContain(
      'Password is too weak. Use at least 8 characters. Include uppercase letters. Include numbers. Include special characters.',
    );
  });

  it('requires a password at all', () => {
    expect(firstMessage(newPasswordSchema, undefined)).toBe('Password is required');
  });
});

describe('name rules', () => {
  it('trims and requires a name ("Name is required")', () => {
    expect(nameSchema.parse('  Ann Lee  ')).toBe('Ann Lee');
    expect(firstMessage(nameSchema, '')).toBe('Name is required');
    expect(firstMessage(nameSchema, '   ')).toBe('Name is required');
    expect(firstMessage(nameSchema, undefined)).toBe('Name is required');
  });

  it('allows 100 characters and refuses 101 ("Name is too long")', () => {
    expect(firstMessage(nameSchema, 'a'.repeat(100))).toBeNull();
    expect(firstMessage(nameSchema, 'a'.repeat(101))).toBe('Name is too long');
  });

  it.each(['José Núñez', "Seán O'Brien", 'Anne-Marie Łukasiewicz', 'Zoë Ångström', 'Ünal Çelik', '山田 太郎'])(
    'accepts letters of any script, spaces, hyphens and apostrophes: %s',
    (name) => {
      expect(firstMessage(nameSchema, name)).toBeNull();
    },
  );

  it.each(['R2D2', 'Ann 3rd', 'ann@example', 'Ann_Lee', 'Ann <b>', 'Ann\tLee', 'Ann\nLee'])(
    'refuses digits, symbols and control characters: %j',
    (name) => {
      expect(firstMessage(nameSchema, name)).toBe('Name can only contain letters, spaces, hyphens, and apostrophes');
    },
  );
});

describe('sign-up form', () => {
  const valid = { name: 'Ann Lee', email: 'ann@example.com', password: STRONG, confirmPassword: STRONG };

  it('accepts a complete form, normalised', () => {
    expect(signUpInput.parse({ ...valid, email: ' Ann@Example.com', name: ' Ann Lee ' })).toEqual({ ...valid });
  });

  it('says "Passwords do not match" on the confirm field when they differ', () => {
    expect(messagesAt(signUpInput, { ...valid, confirmPassword: `${STRONG}x` }, 'confirmPassword')).toEqual(['Passwords do not match']);
  });

  it('reports each field under its own name', () => {
    const result = signUpInput.safeParse({ name: '', email: 'x@yopmail.com', password: 'short', confirmPassword: 'short' });
    expect(result.success).toBe(false);
    const fields = new Map<string, string>();
    for (const issue of result.error!.issues) if (!fields.has(issue.path.join('.'))) fields.set(issue.path.join('.'), issue.message);
    expect(Object.fromEntries(fields)).toMatchObject({
      name: 'Name is required',
      email: 'Please use a valid email address',
      password: 'Password must be at least 8 characters',
    });
  });
});

describe('reset password form', () => {
  it('applies the sign-up password policy and the match rule', () => {
    expect(resetPasswordInput.safeParse({ token: 't', password: STRONG, confirmPassword: STRONG }).success).toBe(true);
    expect(messagesAt(resetPasswordInput, { token: 't', password: STRONG, confirmPassword: 'other' }, 'confirmPassword')).toEqual([
      'Passwords do not match',
    ]);
    expect(messagesAt(resetPasswordInput, { token: 't', password: 'password', confirmPassword: 'password' }, 'password')[0]).toBe(
      'Password must contain at least one uppercase letter, one lowercase letter, one number, and one special character',
    );
  });
});

describe('forgot password form', () => {
  it('requires an address after trimming ("Email is required")', () => {
    expect(messagesAt(forgotPasswordInput, { email: '   ' }, 'email')[0]).toBe('Email is required');
  });

  it('only asks for an "@" ("Please enter a valid email address")', () => {
    expect(messagesAt(forgotPasswordInput, { email: 'ann.example.com' }, 'email')).toEqual(['Please enter a valid email address']);
    expect(forgotPasswordInput.parse({ email: '  Ann@Example ' })).toEqual({ email: 'ann@example' });
  });

  it('refuses more than 254 characters', () => {
    expect(messagesAt(forgotPasswordInput, { email: emailOfLength(255) }, 'email')).toEqual(['Email is too long']);
  });
});
