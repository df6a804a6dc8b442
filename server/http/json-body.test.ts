import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers/app';
import { cleanJson, MAX_JSON_DEPTH, mightNeedCleaning } from './json-body';

const refuse = (value: unknown) => cleanJson(value, { nul: 'refuse' }).problem;

describe('cleanJson', () => {
  it('names the path of the first string or key holding U+0000', () => {
    expect(refuse({ a: 'ok', b: [1, { c: 'x\u0000y' }] })).toEqual({ kind: 'nul', field: 'b.1.c' });
    expect(refuse({ ['k\u0000']: 1 })).toEqual({ kind: 'nul', field: 'k\\u0000' });
    expect(refuse('\u0000')).toEqual({ kind: 'nul', field: 'body' });
  });

  it('finds nothing in ordinary or escaped-backslash text', () => {
    expect(refuse({ a: 'café 🙂', b: ['\\u0000'], c: null, d: 3 })).toBeNull();
  });

  it('replaces lone surrogates with U+FFFD in strings and keys, in place and in order, and leaves pairs alone', () => {
    const value = { a: 'x\ud800y', ['k\udc00']: ['\udbff', '🙂', { deep: 'z\udfff' }], __proto__x: 1, b: 2 };
    const { value: cleaned, problem } = cleanJson(value, { nul: 'refuse' });
    expect(problem).toBeNull();
    expect(cleaned).toBe(value);
    expect(JSON.stringify(cleaned)).toBe(JSON.stringify({ a: 'x\uFFFDy', ['k\uFFFD']: ['\uFFFD', '🙂', { deep: 'z\uFFFD' }], __proto__x: 1, b: 2 }));
    expect(Object.keys(cleaned as object)).toEqual(['a', 'k\uFFFD', '__proto__x', 'b']);
    expect(cleanJson('\ud800', { nul: 'refuse' }).value).toBe('\uFFFD');
  });

  it('keeps a "__proto__" key a plain key when it rebuilds an object', () => {
    const value = JSON.parse('{"__proto__":{"polluted":true},"k\\ud800":1}') as Record<string, unknown>;
    cleanJson(value, { nul: 'refuse' });
    expect(Object.keys(value)).toEqual(['__proto__', 'k\uFFFD']);
    expect((value as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('strips U+0000 from strings and keys when asked to', () => {
    expect(cleanJson({ ['a\u0000b']: ['c\u0000', 'd'] }, { nul: 'strip' })).toEqual({ value: { ab: ['c', 'd'] }, problem: null });
  });

  it(`refuses nesting past ${MAX_JSON_DEPTH} levels without recursion, at any depth`, () => {
    const nested = (depth: number) => JSON.parse(`${'['.repeat(depth)}1${']'.repeat(depth)}`) as unknown;
    expect(refuse(nested(MAX_JSON_DEPTH))).toBeNull();
    expect(refuse(nested(MAX_JSON_DEPTH + 1))).toEqual({ kind: 'depth', field: Array(MAX_JSON_DEPTH).fill('0').join('.') });
    expect(refuse(nested(200_000))?.kind).toBe('depth');
    // No limit: the walk reaches the bottom of 200,000 levels all the same.
    const deep = JSON.parse(`${'['.repeat(200_000)}"a\\u0000\\ud800"${']'.repeat(200_000)}`) as unknown;
    expect(cleanJson(deep, { nul: 'refuse', maxDepth: Infinity }).problem).toEqual({ kind: 'nul', field: Array(200_000).fill('0').join('.') });
    expect(cleanJson(deep, { nul: 'strip', maxDepth: Infinity }).problem).toBeNull();
    let bottom = deep;
    while (Array.isArray(bottom)) bottom = bottom[0] as unknown;
    expect(bottom).toBe('a\uFFFD');
  });

  it('tells which JSON text may need cleaning', () => {
    expect(mightNeedCleaning('{"a":"\\u0000"}')).toBe(true);
    expect(mightNeedCleaning('{"a":"\\ud800"}')).toBe(true);
    expect(mightNeedCleaning('{"a":"x\\uDFFF"}')).toBe(true);
    expect(mightNeedCleaning('{"a":"\\uD83D\\uDE00 \\uDE00"}')).toBe(true);
    expect(mightNeedCleaning('{"a":"\\ud83d\\ude00","b":"\\uD83D\\uDE00"}')).toBe(false);
    expect(mightNeedCleaning('{"a":"\\u00e9 caf\u00e9 🙂"}')).toBe(false);
  });
});

describe('JSON bodies carrying U+0000', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp('pglite', { startJobs: false });
  });
  afterAll(async () => {
    await app.destroy();
  });

  it('are refused with a 400 naming the field instead of failing in the database', async () => {
    const response = await app.client().post('/api/v1/auth/reset-password/check', { token: '\u0000' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', fields: { token: expect.stringContaining('NUL') } } });
  });

  it('leave other bodies to the route', async () => {
    const response = await app.client().post('/api/v1/auth/reset-password/check', { token: 'no-such-token' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ valid: false });
  });

  it('still refuses prototype poisoning and invalid JSON', async () => {
    const poisoned = await app.client().request({
      method: 'POST',
      url: '/api/v1/auth/reset-password/check',
      headers: { 'content-type': 'application/json' },
      body: '{"token":"a","__proto__":{"x":1}}',
    });
    expect(poisoned.statusCode).toBe(400);
    expect(poisoned.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', message: 'Request body is not valid JSON' } });
    const invalid = await app.client().request({
      method: 'POST',
      url: '/api/v1/auth/reset-password/check',
      headers: { 'content-type': 'application/json' },
      body: '{"token":',
    });
    expect(invalid.json()).toMatchObject({ error: { code: 'VALIDATION_ERROR', message: 'Request body is not valid JSON' } });
  });
});
