import { describe, expect, it } from 'vitest';
import { knowledgeFileKind } from './file-kind';

describe('knowledgeFileKind', () => {
  it('goes by the extension first, whatever its case', () => {
    expect(knowledgeFileKind('faq.csv', '')).toBe('csv');
    expect(knowledgeFileKind('FAQ.JSON', 'text/plain')).toBe('json');
    expect(knowledgeFileKind('export.json', 'text/csv')).toBe('json');
  });

  it('falls back to the MIME type', () => {
    expect(knowledgeFileKind('faq', 'text/csv; charset=utf-8')).toBe('csv');
    expect(knowledgeFileKind('faq', 'application/json')).toBe('json');
    expect(knowledgeFileKind('faq.txt', 'application/ld+json')).toBe('json');
  });

  it('then looks at the content', () => {
    expect(knowledgeFileKind('faq.txt', 'text/plain', '\uFEFF  [{"questions":["a"],"answer":"b"}]')).toBe('json');
    expect(knowledgeFileKind('faq.txt', '', 'question,answer,link\nHi,Hello,\n')).toBe('csv');
    expect(knowledgeFileKind('faq.txt', '', '"Question","Answer"\r\n')).toBe('csv');
  });

  it('refuses anything else', () => {
    expect(knowledgeFileKind('faq.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')).toBeNull();
    expect(knowledgeFileKind('notes.txt', 'text/plain', 'just some notes')).toBeNull();
  });
});
