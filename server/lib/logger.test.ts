import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { lazyChildLogger, loggerOptions, redactUrl } from './logger';

describe('redactUrl', () => {
  it.each([
    ['/api/v1/auth/verify-email?token=abc.DEF-123', '/api/v1/auth/verify-email?token=[redacted]'],
    ['/reset-password?token=abc&next=/x', '/reset-password?token=[redacted]&next=/x'],
    ['/cb?state=s1&code=c2#frag', '/cb?state=[redacted]&code=[redacted]#frag'],
    ['/hook?hub.verify_token=v&hub.challenge=42', '/hook?hub.verify_token=[redacted]&hub.challenge=42'],
    ['/x?access_token=a&TOKEN=b', '/x?access_token=[redacted]&TOKEN=[redacted]'],
    ['/shared/summary/Abc_123-x', '/shared/summary/[redacted]'],
    ['/api/v1/shared/summary/Abc_123?timeZone=UTC', '/api/v1/shared/summary/[redacted]?timeZone=UTC'],
    ['/invite/Abc_123-x', '/invite/[redacted]'],
    ['/api/v1/public/invitations/Abc_123/accept', '/api/v1/public/invitations/[redacted]/accept'],
  ])('hides secret query values in %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });

  it.each(['/login', '/x?tokens=1', '/x?mytoken=1', '/token/abc', '/x?page=2&codes=3'])('leaves %s as it is', (url) => {
    expect(redactUrl(url)).toBe(url);
  });
});

describe('logger options', () => {
  it('never writes credentials: cookies, CSRF and control headers, passwords, tokens in URLs', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = pino(loggerOptions('info'), sink);
    logger.info(
      {
        req: { method: 'GET', url: '/api/v1/auth/verify-email?token=SECRET1', headers: { cookie: 'SECRET2', 'user-agent': 'ua' } },
        body: { password: 'SECRET3', newPassword: 'SECRET4', token: 'SECRET5' },
      },
      'request',
    );
    const out = lines.join('');
    expect(out).toContain('verify-email?token=[redacted]');
    for (const secret of ['SECRET1', 'SECRET2', 'SECRET3', 'SECRET4', 'SECRET5']) expect(out).not.toContain(secret);
  });
});

function capture(level: string) {
  const lines: Record<string, unknown>[] = [];
  const logger = pino(loggerOptions(level), { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { logger, lines };
}

describe('lazyChildLogger', () => {
  it('logs with the bindings at enabled levels and redacts like the parent', () => {
    const { logger, lines } = capture('info');
    const child = lazyChildLogger(logger, { reqId: 'r-1' });
    child.info({ body: { token: 'abc' } }, 'hello');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ reqId: 'r-1', msg: 'hello', body: { token: '[redacted]' } });
  });

  it('makes no child for calls at disabled levels, and logs nothing', () => {
    const { logger, lines } = capture('warn');
    let made = 0;
    const parent = new Proxy(logger, {
      get(target, property, receiver) {
        if (property === 'child') made += 1;
        return Reflect.get(target, property, receiver) as unknown;
      },
    });
    const child = lazyChildLogger(parent, { reqId: 'r-2' });
    child.info('not shown');
    child.debug('not shown either');
    expect(made).toBe(0);
    expect(lines).toEqual([]);
    child.warn('shown');
    expect(made).toBe(1);
    expect(lines).toEqual([expect.objectContaining({ reqId: 'r-2', msg: 'shown', level: 40 })]);
  });
});
