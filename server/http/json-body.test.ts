import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers/app';
import { findNulCharacter } from './json-body';

describe('findNulCharacter', () => {
  it('names the path of the first string or key holding U+0000', () => {
    expect(findNulCharacter({ a: 'ok', b: [1, { c: 'x\u0000y' }] })).toBe('b.1.c');
    expect(findNulCharacter({ ['k\u0000']: 1 })).toBe('k\\u0000');
    expect(findNulCharacter('\u0000')).toBe('body');
  });

  it('finds nothing in ordinary or escaped-backslash text', () => {
    expect(findNulCharacter({ a: 'café 🙂', b: ['\\u0000'], c: null, d: 3 })).toBeNull();
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
