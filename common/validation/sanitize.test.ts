import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  HTTPS_URL_MESSAGE,
  httpsUrl,
  isHeavilySanitized,
  isSafeExternalUrl,
  looksLikeScript,
  safeText,
  SCRIPT_LIKE_MESSAGE,
  SHORT_LINK_MESSAGE,
  sanitizeText,
} from './sanitize';

/** Strings rich in the characters and words the rules look for. */
const hostile = fc
  .array(
    fc.oneof(
      fc.constantFrom('<', '>', 'javascript:', 'JaVaScRiPt:', 'java', 'script', ':', 'vbscript:', 'data:', 'text/html', 'onerror=', 'on', 'load', '=', 'expression(', 'eval(', 'import(', ' ', '\t', '\n', '&#x3C;', 'image/png;base64,'),
      fc.string({ maxLength: 4 }),
    ),
    { maxLength: 30 },
  )
  .map((parts) => parts.join(''));

describe('looksLikeScript (spec part 1 §5: refused, never silently cut)', () => {
  it.each(['<script>alert(1)</script>', '<SCRIPT src=x>', '< script>', '</script >', '<iframe src="https://x">', '<object data=x>', '<embed src=x>', 'text <Iframe', '<\tscript>'])('refuses %j', (text) => {
    expect(looksLikeScript(text)).toBe(true);
  });

  it.each(['Scripts for your team', 'description: a script-free page', 'an <img> tag', 'objects and embeds', 'x < y and y > z'])('accepts %j', (text) => {
    expect(looksLikeScript(text)).toBe(false);
  });
});

describe('sanitizeText', () => {
  it.each([
    ['Fast <b>replies</b>', 'Fast breplies/b'],
    ['Click javascript:alert(1)', 'Click alert(1)'],
    ['JAVASCRIPT :alert(1)', 'alert(1)'],
    ['vbscript:msgbox', 'msgbox'],
    ['see data:text/html;base64,PHNjcmlwdD4= now', 'see  now'],
    ['logo data:image/png;base64,iVBORw0KGgo=', 'logo data:image/png;base64,iVBORw0KGgo='],
    ['x onclick=steal() y', 'x steal() y'],
    ['width: expression(alert(1))', 'width: alert(1))'],
    ['eval(code) and import(mod)', 'code) and mod)'],
    ['javajavascript:script:alert(1)', 'alert(1)'],
    ['99.9% uptime, 24/7 support', '99.9% uptime, 24/7 support'],
  ])('%j → %j', (input, output) => {
    expect(sanitizeText(input)).toBe(output);
  });

  it('removes patterns however deeply they are nested (no fixed number of passes)', () => {
    let nested = 'javascript:';
    for (let i = 0; i < 12; i++) nested = `java${nested}script:`;
    expect(sanitizeText(`${nested}alert(1)`)).toBe('alert(1)');
  });

  it('never leaves angle brackets or javascript:, whatever the input', () => {
    fc.assert(
      fc.property(fc.oneof(hostile, fc.string(), fc.string({ unit: 'grapheme' })), (input) => {
        const out = sanitizeText(input);
        expect(out).not.toMatch(/[<>]/u);
        expect(out.toLowerCase()).not.toContain('javascript:');
        expect(out.toLowerCase()).not.toContain('vbscript:');
        expect(out).not.toMatch(/\bon[a-z]{3,}\s*=/iu);
      }),
      { numRuns: 2_000 },
    );
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(fc.oneof(hostile, fc.string()), (input) => {
        const once = sanitizeText(input);
        expect(sanitizeText(once)).toBe(once);
      }),
      { numRuns: 2_000 },
    );
  });

  it('leaves text without any of the patterns unchanged', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9 .,!?'%$/-]{0,60}$/u), (input) => {
        fc.pre(!/\bon[a-z]{3,}\s*=|javascript|vbscript|data:|expression|import|eval/iu.test(input));
        expect(sanitizeText(input)).toBe(input);
      }),
    );
  });
});

describe('isHeavilySanitized (under 80 % of the original left)', () => {
  it('flags a result under 80 % and not one at 80 % or more', () => {
    expect(isHeavilySanitized('0123456789', '0123456')).toBe(true);
    expect(isHeavilySanitized('0123456789', '01234567')).toBe(false);
    expect(isHeavilySanitized('', '')).toBe(false);
  });
});

describe('safeText', () => {
  const field = safeText({ required: 'Heading is required', max: 10 });
  const optional = safeText({ max: 10 });

  it('trims, sanitises and keeps the text', () => {
    expect(field.parse('  <b>Hi</b> ')).toBe('bHi/b');
  });

  it('refuses script-like text with the spec message', () => {
    const result = field.safeParse('<script>');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(SCRIPT_LIKE_MESSAGE);
  });

  it('says what is missing or too long', () => {
    expect(field.safeParse('   ').error?.issues[0]?.message).toBe('Heading is required');
    expect(field.safeParse(undefined).error?.issues[0]?.message).toBe('Heading is required');
    expect(field.safeParse('12345678901').error?.issues[0]?.message).toBe('Must be at most 10 characters');
    expect(optional.parse('  ')).toBe('');
  });

  it('counts what is left after sanitising: a required field of only removed text is missing', () => {
    expect(field.safeParse('<> ').error?.issues.map((i) => i.message)).toEqual(['Heading is required']);
    expect(field.parse('Hi onload=')).toBe('Hi');
    expect(optional.parse('<>')).toBe('');
  });
});

describe('external links (spec part 1 §5)', () => {
  it('opens only https links off the short-link list', () => {
    expect(isSafeExternalUrl('https://parley.example/blog')).toBe(true);
    expect(isSafeExternalUrl('http://parley.example/blog')).toBe(false);
    expect(isSafeExternalUrl('javascript:alert(1)')).toBe(false);
    expect(isSafeExternalUrl('https://bit.ly/x')).toBe(false);
    expect(isSafeExternalUrl('https://www.tinyurl.com/x')).toBe(false);
    expect(isSafeExternalUrl('https://t.co/x')).toBe(false);
    expect(isSafeExternalUrl('not a url')).toBe(false);
  });

  it('httpsUrl says what is wrong', () => {
    const image = httpsUrl('Image URL is required');
    expect(image.safeParse('').error?.issues[0]?.message).toBe('Image URL is required');
    expect(image.safeParse('http://x.example/a.png').error?.issues[0]?.message).toBe(HTTPS_URL_MESSAGE);
    expect(image.safeParse('data:image/png;base64,AAAA').error?.issues[0]?.message).toBe(HTTPS_URL_MESSAGE);
    expect(image.safeParse('https://bit.ly/abc').error?.issues[0]?.message).toBe(SHORT_LINK_MESSAGE);
    expect(image.parse(' https://images.example/a.png ')).toBe('https://images.example/a.png');
  });
});
