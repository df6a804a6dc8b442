import { describe, expect, it } from 'vitest';
import { fileNameFromDisposition } from '@/lib/download';
import { exportFallbackName } from './download';

const NOW = new Date('2025-03-04T10:00:00Z');

describe('export file names', () => {
  it('uses the name the server gave', () => {
    expect(fileNameFromDisposition('attachment; filename="knowledge.csv"', 'x')).toBe('knowledge.csv');
    expect(fileNameFromDisposition("attachment; filename=\"k.json\"; filename*=UTF-8''wissen-%C3%BC.json", 'x')).toBe('wissen-ü.json');
  });

  it('falls back without a usable name, and never keeps a path', () => {
    expect(fileNameFromDisposition(null, 'fallback.csv')).toBe('fallback.csv');
    expect(fileNameFromDisposition('attachment; filename=".."', 'fallback.csv')).toBe('fallback.csv');
    expect(fileNameFromDisposition('attachment; filename="../../etc/passwd"', 'x')).toBe('....etcpasswd');
  });

  it('names a fallback after the client and the day', () => {
    expect(exportFallbackName('Café Crème & Co.', 'csv', NOW)).toBe('knowledge-cafe-creme-co-2025-03-04.csv');
    expect(exportFallbackName('***', 'json', NOW)).toBe('knowledge-export-2025-03-04.json');
  });
});
