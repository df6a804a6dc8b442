import { describe, expect, it } from 'vitest';
import { knowledgeEntryInput } from '@common/api/agents';
import { entryFieldErrors, entryFormPath, importErrorLines, toEntryBody, toEntryForm } from './knowledge-form';

const errorsOf = (body: Record<string, unknown>) => {
  const result = knowledgeEntryInput.safeParse(body);
  return result.success ? {} : entryFieldErrors(result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })));
};

describe('the FAQ entry form', () => {
  it('starts a new entry with one empty question row and edits an entry row by row', () => {
    expect(toEntryForm()).toEqual({ questions: [{ text: '' }], answer: '', link: '' });
    expect(
      toEntryForm({ id: 'x', questions: ['Opening hours?', 'When are you open?'], answer: '9 to 5', link: null, updatedAt: '2025-01-01T00:00:00Z' }),
    ).toEqual({ questions: [{ text: 'Opening hours?' }, { text: 'When are you open?' }], answer: '9 to 5', link: '' });
  });

  it('sends the questions as strings and an empty link as null', () => {
    const body = toEntryBody({ questions: [{ text: 'A?' }, { text: 'B?' }], answer: 'C', link: '  ' });
    expect(body).toEqual({ questions: ['A?', 'B?'], answer: 'C', link: null });
    expect(knowledgeEntryInput.safeParse(body).success).toBe(true);
    expect(toEntryBody({ questions: [{ text: 'A?' }], answer: 'C', link: ' https://x.test/a ' })['link']).toBe('https://x.test/a');
  });

  it('puts each message on its question row, the list or the field', () => {
    expect(errorsOf(toEntryBody({ questions: [{ text: 'ok' }, { text: '  ' }], answer: '', link: 'ftp://x' }))).toEqual({
      'questions.1.text': 'A question cannot be empty',
      answer: 'Answer is required',
      link: 'Enter an http(s) URL',
    });
    expect(errorsOf({ questions: [], answer: 'a', link: null })).toEqual({ 'questions.root': 'Add at least one example question' });
    expect(entryFormPath('questions')).toBe('questions.root');
    expect(entryFormPath('')).toBe('root');
  });

  it('lists import errors in row order', () => {
    expect(importErrorLines({ 'rows.10': 'Answer is required', 'rows.2': 'Row 2: question is empty', content: 'The file is empty' })).toEqual([
      'The file is empty',
      'Row 2: question is empty',
      'rows.10: Answer is required',
    ]);
    expect(importErrorLines(undefined)).toEqual([]);
  });
});
