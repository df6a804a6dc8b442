import { describe, expect, it } from 'vitest';
import { checkCommand, CommandError, parseFlags } from './commands';

describe('command-line flags', () => {
  it('reads --name value and --name=value, and kebab-case names as camelCase', () => {
    expect(parseFlags(['--email', 'a@example.com', '--password=P@ss w0rd', '--client-id', 'x'])).toEqual({
      email: 'a@example.com',
      password: 'P@ss w0rd',
      clientId: 'x',
    });
  });

  it('reads a bare flag as true, before another flag or at the end', () => {
    expect(parseFlags(['--dry-run', '--role', 'client', '--force'])).toEqual({ dryRun: true, role: 'client', force: true });
  });

  it('keeps values that contain "=" or start with a dash after "="', () => {
    expect(parseFlags(['--password=--Odd=1!Aa'])).toEqual({ password: '--Odd=1!Aa' });
    expect(parseFlags(['--name', '-'])).toEqual({ name: '-' });
  });

  it('refuses positional arguments with a clear message', () => {
    expect(() => parseFlags(['stray'])).toThrow(CommandError);
    expect(() => parseFlags(['--role', 'client', 'extra'])).toThrow('Unexpected argument "extra"');
    expect(() => parseFlags(['--'])).toThrow(CommandError);
  });
});

describe('command checks', () => {
  it('names the unknown command and lists the known ones', () => {
    expect(() => checkCommand('users:delete', {})).toThrow(/Unknown command "users:delete"[\s\S]*users:create[\s\S]*users:list/u);
  });

  it('reports every bad flag with its message and the usage', () => {
    let message = '';
    try {
      checkCommand('users:create', { email: 'nope', role: 'owner' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('--email: Please enter a valid email address');
    expect(message).toContain('--password: Password is required');
    expect(message).toContain('--role:');
    expect(message).toContain('Usage: npm run parley -- users:create --email E --password P --role admin|manager|client');
  });

  it('accepts good flags, normalising the e-mail', () => {
    const { flags } = checkCommand('users:create', { email: ' Ann@Example.com ', password: 'Corr3ct!Horse#Battery', role: 'manager' });
    expect(flags).toMatchObject({ email: 'ann@example.com', role: 'manager' });
  });
});
