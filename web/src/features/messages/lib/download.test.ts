import { describe, expect, it } from 'vitest';
import { exportFileName } from './download';

const NOW = new Date('2025-03-04T10:00:00Z');

describe('exportFileName', () => {
  it('uses the name the server gave', () => {
    expect(exportFileName('attachment; filename="messages-2025-03-04.csv"', NOW)).toBe('messages-2025-03-04.csv');
    expect(exportFileName('attachment; filename=plain.csv', NOW)).toBe('plain.csv');
    expect(exportFileName("attachment; filename=\"x.csv\"; filename*=UTF-8''nachrichten-%C3%BC.csv", NOW)).toBe('nachrichten-ü.csv');
  });

  it('falls back to messages-<date>.csv without a usable name', () => {
    expect(exportFileName(null, NOW)).toBe('messages-2025-03-04.csv');
    expect(exportFileName('attachment', NOW)).toBe('messages-2025-03-04.csv');
    expect(exportFileName('attachment; filename=".."', NOW)).toBe('messages-2025-03-04.csv');
  });

  it('never keeps a path', () => {
    expect(exportFileName('attachment; filename="../../etc/passwd"', NOW)).toBe('....etcpasswd');
  });
});
